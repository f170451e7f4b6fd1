'use client';

import { makeQueryClient } from '@/server/trpc/query-client';
import type { AppRouter } from '@/server/trpc/root';
import { ACTING_ORG_HEADER, MAX_BATCH_SIZE } from '@/server/trpc/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import superjson from 'superjson';
import { problemOf } from './problem';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The org was switched in another tab: this page shows an org the session no longer acts as. */
function reloadOnActingOrgChange(error: unknown) {
  if (problemOf(error)?.code === 'acting_org_changed') window.location.reload();
}

/**
 * tRPC + TanStack Query for the console's client components. Every call names the acting org
 * this page shows; the server refuses one the session no longer acts as, and the page reloads.
 */
export function TrpcProvider({ children, actingOrgId }: { children: ReactNode; actingOrgId: string }) {
  const [queryClient] = useState(() => {
    const client = makeQueryClient();
    client.getQueryCache().config.onError = reloadOnActingOrgChange;
    client.getMutationCache().config.onError = reloadOnActingOrgChange;
    return client;
  });
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // The server refuses a batch of more than MAX_BATCH_SIZE calls (server/trpc/http-handler.ts).
      links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: MAX_BATCH_SIZE, headers: { [ACTING_ORG_HEADER]: actingOrgId } })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
