import { getDb } from '@/db/client';
import { getConsoleSession } from '../auth/console-principal';
import { isSameOrigin } from '../auth/csrf';
import type { TrpcContext } from './init';

/**
 * The tRPC context of a console HTTP request: the cookie session's principal (via console).
 * A cross-site request never acts as the user (SPEC §8 R5: cookie mutations CSRF-safe).
 */
export async function createHttpContext(req: Request): Promise<TrpcContext> {
  const session = isSameOrigin(req) ? await getConsoleSession() : null;
  return { principal: session?.principal ?? null, db: getDb() };
}
