import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import type { Principal } from '../context';
import { newId } from '../ids';

const SECRET_PREFIX = 'gpuk_';

/** SHA-256 of a key secret, hex. Keys carry 256 random bits, so no stretching is needed. */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Issues a new API key for `orgId`. The secret is returned once and only its hash is stored
 * (SPEC §8 R5).
 * @returns the key id and the secret (`gpuk_` + 43 base64url chars).
 */
export async function issueApiKey(db: DbOrTx, input: { orgId: string; name: string; now: Date }): Promise<{ id: string; secret: string }> {
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  const id = newId('key');
  await db.insert(apiKeys).values({
    id,
    orgId: input.orgId,
    name: input.name,
    prefix: secret.slice(0, SECRET_PREFIX.length + 6),
    secretHash: hashApiKeySecret(secret),
    createdAt: input.now,
  });
  return { id, secret };
}

/**
 * Resolves `Authorization: Bearer <secret>` to the key's principal, and reads the one clock
 * (PostgreSQL's `now()`, SPEC §4) in the same round trip.
 * @returns null when the header is missing or malformed, or the key is unknown or revoked.
 */
export async function authenticateApiKey(db: DbOrTx, authorization: string | null): Promise<{ principal: Principal; now: Date } | null> {
  const match = /^Bearer +([A-Za-z0-9_-]{1,200})\s*$/.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const rows = await db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, now: sql<Date>`now()`.mapWith((v: string | Date) => new Date(v)) })
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, hashApiKeySecret(match[1])), isNull(apiKeys.revokedAt)));
  const row = rows[0];
  if (!row) return null;
  return { principal: { orgId: row.orgId, actor: { kind: 'apiKey', apiKeyId: row.id }, via: 'api' }, now: row.now };
}
