import { apiKeys } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { notFound } from '../errors';
import { apiKeysVisibleTo } from '../policy';
import { selectApiKeyViews } from './internal';
import type { RevokeApiKeyInput } from './schemas';
import { toApiKeyView, type ApiKeyView } from './view';

/**
 * Revokes one of the acting org's API keys (docs/product.md §2 "manage the org's API keys").
 * From the commit on, the key authenticates nothing: every request checks `revoked_at` in the
 * statement that authenticates it (./authenticate.ts), so it is 401 at once on every instance
 * (§5 Errors). Writes the org-level audit event `api_key.revoke` in the same transaction.
 * Revoking a revoked key answers it unchanged and writes nothing. A principal may revoke the
 * very key it calls with.
 * @returns the key, with `revokedAt`.
 * @throws DomainError not_found — unknown, or another org's key (the operator's included: keys are per org).
 */
export async function revokeApiKey({ ctx, input }: { ctx: Ctx; input: RevokeApiKeyInput }): Promise<ApiKeyView> {
  return inTransaction(ctx, async (tx) => {
    // Locked, so two revokes of one key write one event.
    const [found] = await selectApiKeyViews(tx)
      .where(and(eq(apiKeys.id, input.apiKeyId), apiKeysVisibleTo(ctx)))
      .for('update', { of: apiKeys });
    if (!found) throw notFound(`API key "${input.apiKeyId}"`);
    const { key } = found;
    if (key.revokedAt) return toApiKeyView(found);
    const [revoked] = await tx.update(apiKeys).set({ revokedAt: ctx.now }).where(eq(apiKeys.id, key.id)).returning();
    await writeAuditEvent(tx, ctx, { action: 'api_key.revoke', unitIds: [], details: { apiKeyId: key.id, name: key.name, prefix: key.prefix } });
    return toApiKeyView({ ...found, key: revoked! });
  });
}
