'use client';

import { makeQueryClient } from '@/server/trpc/query-client';
import type { AppRouter } from '@/server/trpc/root';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import { useActingOrgId, useActingOrgSwitch } from './acting-org';
import { consoleClient } from './live/trpc-client';
import { problemOf } from './problem';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/**
 * tRPC + TanStack Query for the console's dialogs (`lazyWithTrpc`, which loads this module
 * with them). Not in the console layout: every page renders from server data and loads none
 * of it first. Every call names the acting org this page shows (ActingOrgProvider); the server
 * refuses one the session no longer acts as (the org was switched in another tab): the page
 * reloads, or with a dialog open, the dialog says so and keeps what was typed (ActingOrgProvider).
 */
export function TrpcProvider({ children }: { children: ReactNode }) {
  const actingOrgId = useActingOrgId();
  const { noteSwitched } = useActingOrgSwitch();
  const [queryClient] = useState(() => {
    const client = makeQueryClient();
    const onError = (error: unknown) => {
      if (problemOf(error)?.code === 'acting_org_changed') noteSwitched();
    };
    client.getQueryCache().config.onError = onError;
    client.getMutationCache().config.onError = onError;
    return client;
  });
  const [trpcClient] = useState(() => consoleClient(actingOrgId));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
