import { webhookEndpoints, webhookSecrets } from '@/db/schema';
import { count, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { newId } from '../ids';
import { lockOrg } from '../orgs/internal';
import { webhooksVisibleTo } from '../policy';
import { MAX_WEBHOOKS_PER_ORG, newWebhookSecret } from './internal';
import type { CreateWebhookInput } from './schemas';
import { toWebhookView, type WebhookWithSecretView } from './view';

/**
 * Registers a webhook endpoint for the acting org (docs/product.md §5.7 Webhooks; §2: any
 * principal of the org, as with API keys). It receives the org's events from its creation on:
 * its cursor starts at the feed's horizon now, so every event of a transaction still open is
 * delivered (and one that committed a moment before, while an older transaction was still open). Bounded: at most 20 per org, counted under the org's lock.
 * Audited as the org-level `webhook.create`.
 * @param input.url https (loopback http only with WEBHOOKS_ALLOW_LOOPBACK=1), no credentials.
 * @param input.types the event types to deliver; absent or empty, all. @param input.enabled default true.
 * @returns the endpoint and its signing secret (`whsec_…`), shown this once.
 * @throws DomainError limit_reached (409, `limit`: 20 endpoints).
 */
export async function createWebhook({ ctx, input }: { ctx: Ctx; input: CreateWebhookInput }): Promise<WebhookWithSecretView> {
  return inTransaction(ctx, async (tx) => {
    await lockOrg(tx, ctx.orgId);
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(webhooksVisibleTo(ctx));
    if (existing!.n >= MAX_WEBHOOKS_PER_ORG) {
      throw new DomainError(
        'limit_reached',
        `Your org already has ${MAX_WEBHOOKS_PER_ORG} webhook endpoints, the most it may have; delete one it no longer needs, then add this one.`,
        { limit: MAX_WEBHOOKS_PER_ORG },
      );
    }
    const enabled = input.enabled ?? true;
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('wh'),
        orgId: ctx.orgId,
        url: input.url,
        types: input.types ?? [],
        description: input.description ?? null,
        enabled,
        disabledAt: enabled ? null : ctx.now,
        disabledReason: enabled ? null : 'disabled',
        createdAt: ctx.now,
        updatedAt: ctx.now,
        // The feed's horizon now: what follows it is what commits from here on (server/events/feed.ts).
        cursorXid: sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`,
        cursorSeq: 0,
      })
      .returning();
    const secret = newWebhookSecret();
    await tx.insert(webhookSecrets).values({ endpointId: row!.id, secret, createdAt: ctx.now });
    await writeAuditEvent(tx, ctx, { action: 'webhook.create', unitIds: [], details: { webhookId: row!.id, url: row!.url, types: row!.types, enabled } });
    return { ...toWebhookView(row!), secret };
  });
}
