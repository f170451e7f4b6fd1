import { getDb } from '@/db/client';
import { TRPCError } from '@trpc/server';
import { getConsoleSession } from '../auth/console-principal';
import { isSameOrigin } from '../auth/csrf';
import { countConsoleRequests } from '../auth/rate-limit';
import { DomainError, errorTable } from '../errors';
import type { TrpcContext } from './init';

/**
 * The tRPC context of a console HTTP request: the cookie session's principal (via console).
 * A cross-site request never acts as the user (docs/product.md §8 R5: cookie mutations CSRF-safe).
 * A signed-in user's calls count against the same per-minute limit as an API key's
 * (`calls`: each call of a batch counts).
 * @throws TRPCError TOO_MANY_REQUESTS (cause: DomainError rate_limited) over the limit.
 */
export async function createHttpContext(req: Request, calls = 1): Promise<TrpcContext> {
  const session = isSameOrigin(req) ? await getConsoleSession() : null;
  const db = getDb();
  if (session && session.principal.actor.kind === 'user') {
    try {
      await countConsoleRequests(db, session.principal.actor.userId, calls);
    } catch (e) {
      if (e instanceof DomainError) throw new TRPCError({ code: errorTable[e.code].trpc, message: e.detail, cause: e });
      throw e;
    }
  }
  return { principal: session?.principal ?? null, db };
}
