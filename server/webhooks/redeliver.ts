import { events } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../context';
import { notFound } from '../errors';
import { eventsVisibleTo } from '../policy';
import { deliverEvent, findOwnWebhook, recordAttempt, signingSecrets } from './internal';
import type { RedeliverWebhookInput } from './schemas';
import { toWebhookAttemptView, type WebhookAttemptView } from './view';

/**
 * Sends one of the acting org's events to one of its endpoints again, now (docs/product.md
 * §5.7: the delivery log's "Redeliver"): signed as any delivery, with the event's own
 * `webhook-id`, so a receiver that has it already can tell. It does not move the endpoint's
 * place in the feed, and works on a disabled endpoint too (to test it before enabling it).
 * @returns the attempt, as the delivery log records it (`manual`).
 * @throws DomainError not_found (the endpoint, or an event the org has not received or no longer keeps).
 */
export async function redeliverWebhook({ ctx, input }: { ctx: Ctx; input: RedeliverWebhookInput }): Promise<WebhookAttemptView> {
  const endpoint = await findOwnWebhook(ctx.db, ctx, input.webhookId);
  const [event] = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.id, input.eventId), eventsVisibleTo(ctx)));
  if (!event) throw notFound(`Event "${input.eventId}"`);
  const secrets = await signingSecrets(ctx.db, endpoint.id, ctx.now);
  const outcome = await deliverEvent(endpoint.url, secrets, event, new Date());
  const attempt = await recordAttempt(ctx.db, endpoint.id, event, ctx.now, outcome, true);
  if (!attempt) throw notFound(`Webhook "${input.webhookId}"`);
  return toWebhookAttemptView(attempt);
}
