import { webhookSecrets } from '@/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { lockOwnWebhook, newWebhookSecret, OLD_SECRET_SIGNS_MS } from './internal';
import type { WebhookKey } from './schemas';
import { toWebhookView, type WebhookWithSecretView } from './view';

/**
 * Gives one of the acting org's endpoints a new signing secret (docs/product.md §5.7): the old
 * one keeps signing beside it for 24 h — each delivery carries a signature by each, as Standard
 * Webhooks allows — so a receiver can switch without losing a delivery. Audited as the org-level
 * `webhook.rotate_secret`.
 * @returns the endpoint and its new secret, shown this once. @throws DomainError not_found.
 */
export async function rotateWebhookSecret({ ctx, input }: { ctx: Ctx; input: WebhookKey }): Promise<WebhookWithSecretView> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockOwnWebhook(tx, ctx, input.webhookId);
    await tx
      .update(webhookSecrets)
      .set({ expiresAt: new Date(ctx.now.getTime() + OLD_SECRET_SIGNS_MS) })
      .where(and(eq(webhookSecrets.endpointId, row.id), isNull(webhookSecrets.expiresAt)));
    const secret = newWebhookSecret();
    await tx.insert(webhookSecrets).values({ endpointId: row.id, secret, createdAt: ctx.now });
    await writeAuditEvent(tx, ctx, { action: 'webhook.rotate_secret', unitIds: [], details: { webhookId: row.id } });
    return { ...toWebhookView(row), secret };
  });
}
