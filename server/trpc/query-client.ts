import { QueryClient, defaultShouldDehydrateQuery } from '@tanstack/react-query';

/**
 * The console's QueryClient, on both sides: the server prefetches a page's queries into one
 * per request (server/trpc/server.tsx) and the browser keeps one for the session
 * (components/trpc-provider.tsx). Data shows fresh for 2 s, so a page hydrated with server
 * data does not fetch it again at once; pages refresh on their own interval after that.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: 1, refetchOnWindowFocus: true },
      // Queries still in flight are sent along too, so a slow one streams in rather than
      // being fetched again by the browser.
      dehydrate: { shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending' },
    },
  });
}
