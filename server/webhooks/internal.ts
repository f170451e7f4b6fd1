import type { DbOrTx, Tx } from '@/db/client';
import { webhookAttempts, webhookEndpoints, webhookSecrets } from '@/db/schema';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Ctx } from '../context';
import { notFound } from '../errors';
import { webhooksVisibleTo } from '../policy';
import { sendWebhook, type SendOutcome } from './send';
import type { WebhookRow } from './view';

/** At most this many endpoints per org (docs/product.md §5.7); the next create is 409 `limit_reached`. */
export const MAX_WEBHOOKS_PER_ORG = 20;

/** How long a rotated-out secret keeps signing beside the new one (docs/product.md §5.7). */
export const OLD_SECRET_SIGNS_MS = 24 * 3_600_000;

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes, base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * One of the acting org's endpoints, locked for a change (docs/product.md §2: an org's webhooks
 * are its own; another org's, the operator's call included, is 404).
 * @throws DomainError not_found
 */
export async function lockOwnWebhook(tx: Tx, ctx: Ctx, webhookId: string): Promise<WebhookRow> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, webhookId), webhooksVisibleTo(ctx)))
    .for('update');
  if (!row) throw notFound(`Webhook "${webhookId}"`);
  return row;
}

/** One of the acting org's endpoints, read. @throws DomainError not_found */
export async function findOwnWebhook(db: DbOrTx, ctx: Ctx, webhookId: string): Promise<WebhookRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, webhookId), webhooksVisibleTo(ctx)));
  if (!row) throw notFound(`Webhook "${webhookId}"`);
  return row;
}

/** The secrets that sign now: the current one and any rotated out less than 24 h before `now`. */
export async function signingSecrets(db: DbOrTx, endpointId: string, now: Date): Promise<string[]> {
  const rows = await db
    .select({ secret: webhookSecrets.secret })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.endpointId, endpointId), or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, now))))
    .orderBy(webhookSecrets.id);
  return rows.map((r) => r.secret);
}

/** An event as a delivery carries it: Standard Webhooks' `{ type, timestamp, data }`, and its id. */
export type DeliveredEvent = { id: string; type: string; at: Date; data: Record<string, unknown> };

/**
 * Signs and sends one event (Standard Webhooks: `webhook-id` is the event's id, the same on
 * every retry; `webhook-timestamp` the send's; `webhook-signature` one `v1,…` per signing secret,
 * space-separated, so a receiver holding either secret verifies it during a rotation).
 */
export async function deliverEvent(url: string, secrets: readonly string[], event: DeliveredEvent, sentAt: Date): Promise<SendOutcome> {
  const body = JSON.stringify({ id: event.id, type: event.type, timestamp: event.at.toISOString(), data: event.data });
  const signature = secrets.map((s) => new Webhook(s).sign(event.id, sentAt, body)).join(' ');
  return sendWebhook(url, body, {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signature,
  });
}

/**
 * Records one attempt in the endpoint's delivery log.
 * @returns the row, or null when the endpoint was deleted meanwhile (its log went with it).
 */
export async function recordAttempt(
  db: DbOrTx,
  endpointId: string,
  event: { id: string; type: string },
  at: Date,
  outcome: SendOutcome,
  manual = false,
): Promise<typeof webhookAttempts.$inferSelect | null> {
  const inserted = db
    .insert(webhookAttempts)
    .values({
      endpointId,
      eventId: event.id,
      eventType: event.type,
      at,
      statusCode: outcome.statusCode ?? null,
      latencyMs: outcome.latencyMs,
      error: outcome.error?.slice(0, 500) ?? null,
      manual,
    })
    .returning();
  try {
    return (await inserted)[0]!;
  } catch (e) {
    // 23503 foreign_key_violation: the endpoint is gone.
    if ((e as { cause?: { code?: string } }).cause?.code === '23503' || (e as { code?: string }).code === '23503') return null;
    throw e;
  }
}
