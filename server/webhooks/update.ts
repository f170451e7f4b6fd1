import { webhookEndpoints } from '@/db/schema';
import { eq } from 'drizzle-orm';
import type { AuditDetailsOf } from '../audit/details';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { lockOwnWebhook } from './internal';
import type { UpdateWebhookInput } from './schemas';
import { toWebhookView, type WebhookView } from './view';

/**
 * Changes one of the acting org's endpoints (docs/product.md §5.7): its URL, types, description,
 * or whether it is enabled. Disabling stops deliveries where they are; enabling again — also one
 * the dispatcher disabled after 24 h of failures — clears its failures and resumes from the first
 * event it has not delivered (those older than the 30-day retention are gone). A change that
 * changes nothing writes nothing. Audited as the org-level `webhook.update`.
 * @returns the endpoint. @throws DomainError not_found (unknown, or another org's).
 */
export async function updateWebhook({ ctx, input }: { ctx: Ctx; input: UpdateWebhookInput }): Promise<WebhookView> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockOwnWebhook(tx, ctx, input.webhookId);
    const changes: Omit<AuditDetailsOf<'webhook.update'>, 'webhookId'> = {};
    if (input.url !== undefined && input.url !== row.url) changes.url = input.url;
    if (input.types !== undefined && JSON.stringify(input.types) !== JSON.stringify(row.types)) changes.types = input.types;
    if (input.description !== undefined && (input.description || null) !== row.description) changes.description = input.description || null;
    if (input.enabled !== undefined && input.enabled !== row.enabled) changes.enabled = input.enabled;
    if (Object.keys(changes).length === 0) return toWebhookView(row);
    const resumed = changes.enabled === true;
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...changes,
        updatedAt: ctx.now,
        ...(changes.enabled === false ? { disabledAt: ctx.now, disabledReason: 'disabled' as const } : {}),
        ...(resumed ? { disabledAt: null, disabledReason: null, attempts: 0, failingSince: null, nextAttemptAt: null } : {}),
      })
      .where(eq(webhookEndpoints.id, row.id))
      .returning();
    await writeAuditEvent(tx, ctx, { action: 'webhook.update', unitIds: [], details: { webhookId: row.id, ...changes } });
    return toWebhookView(updated!);
  });
}
