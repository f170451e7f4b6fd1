import { webhookAttempts, webhookEndpoints } from '@/db/schema';
import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import type { Ctx } from '../context';
import { decodeCursor, toPage, type Page } from '../pagination';
import { webhooksVisibleTo } from '../policy';
import { findOwnWebhook } from './internal';
import type { ListWebhookAttemptsInput, ListWebhooksInput, WebhookKey } from './schemas';
import { toWebhookAttemptView, toWebhookView, type WebhookAttemptView, type WebhookView } from './view';

/**
 * The acting org's webhook endpoints, by id (docs/product.md §5.7; §2: its own only, the
 * operator's included). Never a secret.
 * @returns `{ items, nextCursor? }` @throws DomainError invalid_request for a cursor this API did not hand out.
 */
export async function listWebhooks({ ctx, input }: { ctx: Ctx; input: ListWebhooksInput }): Promise<Page<WebhookView>> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? decodeCursor(input.cursor) : undefined;
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(webhooksVisibleTo(ctx), after ? gt(webhookEndpoints.id, after) : undefined))
    .orderBy(asc(webhookEndpoints.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => r.id,
    (kept) => kept.map(toWebhookView),
  );
}

/** One of the acting org's endpoints. @throws DomainError not_found (unknown, or another org's). */
export async function getWebhook({ ctx, input }: { ctx: Ctx; input: WebhookKey }): Promise<WebhookView> {
  return toWebhookView(await findOwnWebhook(ctx.db, ctx, input.webhookId));
}

/**
 * An endpoint's delivery log, newest first (docs/product.md §5.7): each attempt's event, time,
 * status code, latency and error; kept 30 days.
 * @returns `{ items, nextCursor? }` @throws DomainError not_found, invalid_request (cursor).
 */
export async function listWebhookAttempts({ ctx, input }: { ctx: Ctx; input: ListWebhookAttemptsInput }): Promise<Page<WebhookAttemptView>> {
  // docs/product.md §5 check order: a malformed cursor (400) before an unknown endpoint (404).
  const after = input.cursor !== undefined ? Number(decodeCursor(input.cursor)) : undefined;
  const endpoint = await findOwnWebhook(ctx.db, ctx, input.webhookId);
  const limit = input.limit ?? 100;
  const rows = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpoint.id), after !== undefined && Number.isSafeInteger(after) ? lt(webhookAttempts.seq, after) : undefined))
    .orderBy(desc(webhookAttempts.seq))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => String(r.seq),
    (kept) => kept.map(toWebhookAttemptView),
  );
}
