import { QueryClient, defaultShouldDehydrateQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';

/** A 4xx is the answer, not a hiccup: asking again gives the same one. */
const retryUnlessRefused = (failures: number, error: unknown) => failures < 1 && !(error instanceof TRPCClientError && ((error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 500) < 500);

/**
 * The console's QueryClient, on both sides: the server prefetches a page's queries into one
 * per request (server/trpc/server.tsx) and the browser keeps one for the session
 * (components/trpc-provider.tsx). Data shows fresh for 2 s, so a page hydrated with server
 * data does not fetch it again at once; pages refresh on their own interval after that.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: retryUnlessRefused, refetchOnWindowFocus: true },
      // Queries still in flight are sent along too, so a slow one streams in rather than
      // being fetched again by the browser.
      dehydrate: { shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending' },
    },
  });
}
