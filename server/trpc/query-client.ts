import { QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';

/** A 4xx is the answer, not a hiccup: asking again gives the same one. */
const retryUnlessRefused = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof TRPCClientError && ((error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 500) < 500);

/**
 * The console's QueryClient, on both sides: the server reads a page's queries into one per
 * request (server/trpc/server.tsx), and in the browser a dialog that queries the server (an
 * org search, a topology history) keeps one (components/trpc-provider.tsx).
 */
export function makeQueryClient(opts: { retry?: false } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: opts.retry ?? retryUnlessRefused, refetchOnWindowFocus: true },
    },
  });
}
