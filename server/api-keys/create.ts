import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { issueApiKey } from './internal';
import type { CreateApiKeyInput } from './schemas';
import { toApiKeyView, type CreatedApiKeyView } from './view';

/**
 * Creates an API key for the acting org (docs/product.md §2 "manage the org's API keys": any
 * principal of the org, an API key included; §7: 256-bit random, stored as its SHA-256 only).
 * The answer is the one time the secret is shown: nothing stores it, so no later call — nor an
 * Idempotency-Key replay, which this route refuses (docs/product.md §9 m) — can show it again. Writes the
 * org-level audit event `api_key.create` (id, name and prefix; never the secret) in the same
 * transaction.
 * @param input.name 1–100 characters, what the key is for.
 * @returns the key and its `secret`.
 */
export async function createApiKey({ ctx, input }: { ctx: Ctx; input: CreateApiKeyInput }): Promise<CreatedApiKeyView> {
  return inTransaction(ctx, async (tx) => {
    const { secret, row } = await issueApiKey(tx, { orgId: ctx.orgId, name: input.name, now: ctx.now });
    await writeAuditEvent(tx, ctx, { action: 'api_key.create', unitIds: [], details: { apiKeyId: row.id, name: row.name, prefix: row.prefix } });
    return { ...toApiKeyView(row), secret };
  });
}
