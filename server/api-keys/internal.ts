import type { DbOrTx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { createHash, randomBytes } from 'node:crypto';
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
 * @returns the stored row and the secret (`gpuk_` + 43 base64url chars).
 */
export async function issueApiKey(db: DbOrTx, input: { orgId: string; name: string; now: Date }): Promise<{ id: string; secret: string; row: ApiKeyRow }> {
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  const id = newId('key');
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      orgId: input.orgId,
      name: input.name,
      prefix: secret.slice(0, SECRET_PREFIX.length + 6),
      secretHash: hashApiKeySecret(secret),
      createdAt: input.now,
    })
    .returning();
  return { id, secret, row: row! };
}
