import 'server-only';
import type { DataTag, QueryClient, QueryKey } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { getConsoleSession } from '../auth/console-principal';
import { countConsoleRequests } from '../auth/rate-limit';
import { DomainError, type ErrorCode } from '../errors';
import { createRequestReads } from '../request-reads';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { internalError } from '../http/problem';
import { problemOfTrpcError, type TrpcContext } from './init';
import { makeQueryClient } from './query-client';
import { appRouter } from './root';

/**
 * The console's server-side tRPC (React Server Components): every page reads here what it
 * shows and hands it to its components as props (`prefetched`), so the first HTML already
 * holds the grid or the fleet table, the browser waits on no client-side waterfall
 * (docs/product.md §8 P3) and loads no client data layer with the page; a page refreshes by
 * rendering again (`router.refresh()`).
 * Calls run in-process through the same procedures, context and error mapping as
 * /api/trpc; the session is the request's (cookie), read once per request, and so are the
 * clock and each node (server/request-reads.ts): the layout's and the page's queries share them.
 */

/**
 * One QueryClient per request (React's `cache` is request-scoped on the server). It never
 * retries: a page shows a failed read at once, and its next refresh reads again — a retry
 * here only delayed every refused read (a 400 for a bad URL filter) by its second's back-off.
 */
export const getQueryClient = cache(() => makeQueryClient({ retry: false }));

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
 * What a prefetched query answered, for a page that renders from server data: its data, or
 * the problem's `detail` as the API says it (and, for an invalid input, the problem's
 * `errors[]`, so the page can say each beside the filter it names); `limited` when it was not
 * asked at all (the user over the rate limit: the page's next refresh asks again).
 */
export type Prefetched<T> = { data?: T; error?: string; code?: ErrorCode; errors?: { path: string; message: string }[]; limited?: true };

/**
 * A page's read as the API answered it. Pages take `prefetched` (app/(console)/server-reads.ts),
 * which says the problem in words for a person: the API's sentence names fields by their schema
 * paths (`input.vmId`) and speaks of cursors and codes.
 */
export function prefetchedAsServed<T>(q: { queryKey: DataTag<QueryKey, T, unknown> }): Prefetched<T> {
  const state = getQueryClient().getQueryState(q.queryKey);
  if (state?.status === 'success') return { data: state.data as T };
  if (state?.status === 'error') {
    const e = state.error;
    // The sentence the browser's tRPC client would show: the problem's detail.
    const problem = e instanceof TRPCError ? problemOfTrpcError(e, getHTTPStatusCodeFromError(e)) : null;
    if (!problem) return { error: internalError().detail, code: 'internal_error' };
    return { error: problem.detail, code: problem.code, ...(problem.errors?.length ? { errors: problem.errors } : {}) };
  }
  return { error: 'Too many requests for this minute: the page tries again in a moment.', limited: true };
}
