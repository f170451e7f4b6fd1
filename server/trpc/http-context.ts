import { getDb } from '@/db/client';
import { getConsoleSession } from '../auth/console-principal';
import { isSameOrigin } from '../auth/csrf';
import { countConsoleRequests } from '../auth/rate-limit';
import { DomainError, toServiceUnavailable } from '../errors';
import { createRequestReads } from '../request-reads';
import { toTrpcError, type TrpcContext } from './init';
import { ACTING_ORG_HEADER } from './shared';

/**
 * The tRPC context of a console HTTP request: the cookie session's principal (via console).
 * A cross-site request never acts as the user (docs/product.md §8 R5: cookie mutations CSRF-safe).
 * A signed-in user's calls count against the same per-minute limit as an API key's
 * (`calls`: each call of a batch counts). The batch's calls share one clock and one read of
 * each node (server/request-reads.ts); the clock comes with the rate-limit count.
 * @throws TRPCError TOO_MANY_REQUESTS (cause: DomainError rate_limited) over the limit;
 *   CONFLICT (acting_org_changed) when the page's acting org is not the session's.
 */
export async function createHttpContext(req: Request, calls = 1): Promise<TrpcContext> {
  try {
    return await resolveHttpContext(req, calls);
  } catch (e) {
    // The session lookup is the first query: with the database gone, 503, not a 500.
    const unavailable = toServiceUnavailable(e);
    if (unavailable) throw toTrpcError(unavailable);
    throw e;
  }
}

async function resolveHttpContext(req: Request, calls: number): Promise<TrpcContext> {
  const session = isSameOrigin(req) ? await getConsoleSession() : null;
  const db = getDb();
  const reads = createRequestReads(db);
  // The page names the acting org it shows (ACTING_ORG_HEADER). When another tab switched org
  // since, the session acts as a different org than the person sees: refuse, and the page
  // reloads to the current one (docs/product.md §6), rather than act as an org not on screen.
  const shown = req.headers.get(ACTING_ORG_HEADER);
  if (session && shown !== null && shown !== session.principal.orgId) {
    throw toTrpcError(
      new DomainError(
        'acting_org_changed',
        `This page acts as ${shown}, but your session now acts as ${session.principal.orgId} (the org was switched elsewhere); reload the page to continue as ${session.principal.orgId}.`,
      ),
    );
  }
  if (session && session.principal.actor.kind === 'user') {
    try {
      const at = await countConsoleRequests(db, session.principal.actor.userId, calls);
      if (at) reads.adoptNow(at);
    } catch (e) {
      if (e instanceof DomainError) throw toTrpcError(e);
      throw e;
    }
  }
  return { principal: session?.principal ?? null, db, reads };
}
