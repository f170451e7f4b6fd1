import { apiKeyScopes, type ApiKeyScope, type apiKeys } from '@/db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * Who created a key (docs/product.md §5 Objects `createdBy`), shown to the key's own org — the
 * only org that sees its keys at all (§2): a console user (`name` while the user exists), one
 * of the org's API keys (its `name` and `prefix`, so an org can tell what a leaked key minted),
 * or a system job. Keys issued before creators were recorded have none: the field is omitted.
 */
export type ApiKeyCreator =
  { kind: 'user'; userId: string; name?: string } | { kind: 'api_key'; id: string; name: string; prefix: string } | { kind: 'system'; job: string };

/**
 * The API key object (docs/product.md §5 Objects): never its secret, which is shown once, when
 * it is created, and stored only as a hash (§7, §8 R5). `lastUsedAt` is to the minute
 * (server/api-keys/authenticate.ts); unset fields are omitted, never `null`.
 */
export type ApiKeyView = {
  id: string;
  name: string;
  /** The secret's first characters (`gpuk_` + 6), to recognise a key without revealing it. */
  prefix: string;
  /** What the key may call (docs/product.md §2), in the order of `apiKeyScopes`. */
  scopes: ApiKeyScope[];
  createdAt: string;
  createdBy?: ApiKeyCreator;
  lastUsedAt?: string;
  revokedAt?: string;
};

/** The answer of creating a key: the key, and its secret — the one time it is shown. */
export type CreatedApiKeyView = ApiKeyView & { secret: string };

/** A key's row with what its view shows of its creator (server/api-keys/internal.ts `selectApiKeyViews`). */
export type ApiKeyViewRow = { key: ApiKeyRow; creatorUserName: string | null; creatorKeyName: string | null; creatorKeyPrefix: string | null };

function creatorOf(r: ApiKeyViewRow): ApiKeyCreator | undefined {
  const { key } = r;
  if (key.createdByUserId !== null) return { kind: 'user', userId: key.createdByUserId, ...(r.creatorUserName !== null ? { name: r.creatorUserName } : {}) };
  // Keys are never deleted but with their org, so the creator key is always there.
  if (key.createdByApiKeyId !== null && r.creatorKeyName !== null && r.creatorKeyPrefix !== null)
    return { kind: 'api_key', id: key.createdByApiKeyId, name: r.creatorKeyName, prefix: r.creatorKeyPrefix };
  if (key.createdByJob !== null) return { kind: 'system', job: key.createdByJob };
  return undefined;
}

export function toApiKeyView(r: ApiKeyViewRow): ApiKeyView {
  const { key: row } = r;
  const createdBy = creatorOf(r);
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: apiKeyScopes.filter((s) => row.scopes.includes(s)),
    createdAt: row.createdAt.toISOString(),
    ...(createdBy ? { createdBy } : {}),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    ...(row.revokedAt ? { revokedAt: row.revokedAt.toISOString() } : {}),
  };
}
