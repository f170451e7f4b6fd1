import 'server-only';
import { HydrationBoundary, dehydrate, hashKey, type QueryClient } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cache, type ReactNode } from 'react';
import { getDb } from '@/db/client';
import { getConsoleSession } from '../auth/console-principal';
import { countConsoleRequests } from '../auth/rate-limit';
import { DomainError } from '../errors';
import { createRequestReads } from '../request-reads';
import type { TrpcContext } from './init';
import { makeQueryClient } from './query-client';
import { appRouter } from './root';

/**
 * The console's server-side tRPC (React Server Components): pages prefetch the queries their
 * client components ask for, so the first HTML already holds the grid or the fleet table and
 * the browser does not wait on a client-side waterfall (docs/product.md §8 P3).
 * Calls run in-process through the same procedures, context and error mapping as
 * /api/trpc; the session is the request's (cookie), read once per request, and so are the
 * clock and each node (server/request-reads.ts): the layout's and the page's queries share them.
 */

/** One QueryClient per request (React's `cache` is request-scoped on the server). */
export const getQueryClient = cache(makeQueryClient);

const createRscContext = cache(async (): Promise<TrpcContext> => {
  const session = await getConsoleSession();
  const db = getDb();
  return { principal: session?.principal ?? null, db, reads: createRequestReads(db) };
});

/** Query options for server-side prefetching, the same keys `useTRPC()` builds in the browser. */
export const trpc = createTRPCOptionsProxy({ ctx: createRscContext, router: appRouter, queryClient: getQueryClient });

/**
 * Prefetches queries into this request's QueryClient. Awaited, so the data is in the first
 * HTML; a failing query is left out (the browser fetches it and shows the error).
 */
export async function prefetch(...queries: { queryKey: readonly unknown[] }[]): Promise<void> {
  // A page's prefetched calls count against the user's per-minute limit like /api/trpc calls;
  // over it, nothing is prefetched and the browser's own calls get the 429 to show.
  const ctx = await createRscContext();
  if (ctx.principal?.actor.kind === 'user') {
    try {
      const at = await countConsoleRequests(ctx.db, ctx.principal.actor.userId, queries.length);
      if (at) ctx.reads?.adoptNow(at);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'rate_limited') return;
      throw e;
    }
  }
  const client = getQueryClient();
  // Each query's own types were checked where its options were built (trpc.x.queryOptions);
  // a list of differently typed queries only unifies as their common shape.
  await Promise.all(queries.map((q) => client.prefetchQuery(q as Parameters<QueryClient['prefetchQuery']>[0])));
}

/**
 * Hands the prefetched queries to the client components below it.
 * @param only just these queries: a layout's own (the header's), so that it does not hand over
 *   a page's queries still in flight — a page hands over its own once they have settled.
 */
export function HydrateClient({ children, only }: { children: ReactNode; only?: { queryKey: readonly unknown[] }[] }) {
  const hashes = only && new Set(only.map((q) => hashKey(q.queryKey)));
  const state = dehydrate(getQueryClient(), hashes ? { shouldDehydrateQuery: (q) => hashes.has(q.queryHash) } : undefined);
  return <HydrationBoundary state={state}>{children}</HydrationBoundary>;
}
