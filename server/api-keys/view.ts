import type { apiKeys } from '@/db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

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
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
};

/** The answer of creating a key: the key, and its secret — the one time it is shown. */
export type CreatedApiKeyView = ApiKeyView & { secret: string };

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    ...(row.revokedAt ? { revokedAt: row.revokedAt.toISOString() } : {}),
  };
}
