import type { DbOrTx } from '@/db/client';
import { apiKeys, users, type ApiKeyScope } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { createHash, randomBytes } from 'node:crypto';
import { actorColumns, type Actor } from '../context';
import { newId } from '../ids';
import type { ApiKeyRow } from './view';

const SECRET_PREFIX = 'gpuk_';

/** SHA-256 of a key secret, hex. Keys carry 256 random bits, so no stretching is needed. */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Issues a new API key for `orgId`. The secret is returned once and only its hash is stored
 * (docs/product.md §8 R5). It writes no audit event: it is the primitive the seed and tests
 * use to hand out keys, which no principal asked for; the `createApiKey` verb
 * (./create.ts) audits around it in its own transaction.
 * @param input.scopes what the key may call (docs/product.md §2); absent: all four.
 * @param input.createdBy the actor who asked for it, kept as the key's `createdBy`
 *   (docs/product.md §5 Objects); absent for keys no principal asked for.
 * @returns the stored row and the secret (`gpuk_` + 43 base64url chars).
 */
export async function issueApiKey(
  db: DbOrTx,
  input: { orgId: string; name: string; now: Date; createdBy?: Actor; scopes?: readonly ApiKeyScope[] },
): Promise<{ id: string; secret: string; row: ApiKeyRow }> {
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  const id = newId('key');
  const creator = actorColumns(input.createdBy);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      orgId: input.orgId,
      name: input.name,
      prefix: secret.slice(0, SECRET_PREFIX.length + 6),
      secretHash: hashApiKeySecret(secret),
      createdAt: input.now,
      createdByUserId: creator.userId,
      createdByApiKeyId: creator.apiKeyId,
      createdByJob: creator.job,
      // Absent: the column's default, all four (the seed's and tests' keys, as before scopes).
      ...(input.scopes ? { scopes: [...input.scopes] } : {}),
    })
    .returning();
  return { id, secret, row: row! };
}

const creatorKey = alias(apiKeys, 'creator_key');

/**
 * The keys with what their views show of their creators (`toApiKeyView`): the creating user's
 * name, the creating key's name and prefix. The creator key is joined only within the key's own
 * org, so no view can name another org's key. Add `where`, order, limit or lock as needed
 * (lock `{ of: apiKeys }`: the joined rows are only read).
 */
export function selectApiKeyViews(db: DbOrTx) {
  return db
    .select({ key: apiKeys, creatorUserName: users.name, creatorKeyName: creatorKey.name, creatorKeyPrefix: creatorKey.prefix })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .leftJoin(creatorKey, and(eq(creatorKey.id, apiKeys.createdByApiKeyId), eq(creatorKey.orgId, apiKeys.orgId)));
}
