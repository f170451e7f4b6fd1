/**
 * The console's vanilla tRPC client, for calls made outside TanStack Query (useServerCall):
 * loaded on demand, never with a page. The same link as components/trpc-provider.tsx.
 */
import type { AppRouter } from '@/server/trpc/root';
import { ACTING_ORG_HEADER, MAX_BATCH_SIZE } from '@/server/trpc/shared';
import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import superjson from 'superjson';

export type ConsoleClient = TRPCClient<AppRouter>;

const clients = new Map<string, ConsoleClient>();

/** One client per acting org for the tab's life; every call names that org (ACTING_ORG_HEADER). */
export function consoleClient(actingOrgId: string): ConsoleClient {
  let client = clients.get(actingOrgId);
  if (!client) {
    client = createTRPCClient<AppRouter>({
      // The server refuses a batch of more than MAX_BATCH_SIZE calls (server/trpc/http-handler.ts).
      links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: MAX_BATCH_SIZE, headers: { [ACTING_ORG_HEADER]: actingOrgId } })],
    });
    clients.set(actingOrgId, client);
  }
  return client;
}
