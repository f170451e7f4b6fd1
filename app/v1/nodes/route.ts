import { ListNodesQuery, listNodes } from '@/server/nodes';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListNodesQuery, handle: ({ ctx, query }) => listNodes({ ctx, input: query }) }),
});
