import { webhookEndpoints } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { lockOwnWebhook } from './internal';
import type { WebhookKey } from './schemas';
import { toWebhookView, type WebhookView } from './view';

/**
 * Deletes one of the acting org's endpoints (docs/product.md §5.7), its secrets and its delivery
 * log with it: nothing more is sent to it from the commit on (a delivery in flight finishes, and
 * is not recorded). Audited as the org-level `webhook.delete`.
 * @returns the endpoint as it was. @throws DomainError not_found (unknown, or another org's).
 */
export async function deleteWebhook({ ctx, input }: { ctx: Ctx; input: WebhookKey }): Promise<WebhookView> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockOwnWebhook(tx, ctx, input.webhookId);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await writeAuditEvent(tx, ctx, { action: 'webhook.delete', unitIds: [], details: { webhookId: row.id, url: row.url } });
    return toWebhookView(row);
  });
}
