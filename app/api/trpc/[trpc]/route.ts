import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createHttpContext } from '@/server/trpc/http-context';
import { appRouter } from '@/server/trpc/root';

function handle(req: Request) {
  return fetchRequestHandler({ endpoint: '/api/trpc', req, router: appRouter, createContext: () => createHttpContext(req) });
}

export { handle as GET, handle as POST };
