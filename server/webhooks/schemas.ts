import { z } from 'zod';
import { eventTypes, type EventType } from '../events/catalog';
import { Id, freeText } from '../ids';
import { LimitNumber } from '../pagination';
import { refusedUrl } from './send';

/** An endpoint's URL (docs/product.md §5.7): https (http to loopback only where configured), no credentials, ≤ 2000 characters. */
const WebhookUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .superRefine((url, ctx) => {
    const why = refusedUrl(url);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  })
  .meta({
    format: 'uri',
    description:
      'Where to POST: https only, without a user name or password; its addresses are checked again at every delivery (no private, loopback or link-local ones).',
  });

/** The event types an endpoint takes: distinct, each known; empty for every type. */
const WebhookTypes = z
  .array(z.enum(eventTypes as [EventType, ...EventType[]]))
  .max(eventTypes.length)
  .refine((t) => new Set(t).size === t.length, 'must not repeat a type')
  .meta({ description: 'The event types to deliver, each once; empty or absent: every type.', uniqueItems: true });

const Description = freeText(200).meta({ description: 'What the endpoint is for; at most 200 characters.' });

/** `POST /v1/webhooks`. */
export const CreateWebhookInput = z
  .object({ url: WebhookUrl, types: WebhookTypes.optional(), description: Description.optional(), enabled: z.boolean().optional() })
  .strict();
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

/** `PATCH /v1/webhooks/{id}`: what may change; enabling again resumes deliveries where they stopped. */
export const UpdateWebhookInput = z
  .object({
    webhookId: Id,
    url: WebhookUrl.optional(),
    types: WebhookTypes.optional(),
    description: Description.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

/** One endpoint by id: get, delete, rotate its secret. */
export const WebhookKey = z.object({ webhookId: Id }).strict();
export type WebhookKey = z.infer<typeof WebhookKey>;

export const ListWebhooksInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().max(512).optional() }).strict();
export type ListWebhooksInput = z.infer<typeof ListWebhooksInput>;

/** `GET /v1/webhooks/{id}/attempts`: the delivery log, newest first. */
export const ListWebhookAttemptsInput = z.object({ webhookId: Id, limit: LimitNumber.optional(), cursor: z.string().max(512).optional() }).strict();
export type ListWebhookAttemptsInput = z.infer<typeof ListWebhookAttemptsInput>;

/** `POST /v1/webhooks/{id}/redeliver` `{ eventId }`: send one event again now. */
export const RedeliverWebhookInput = z.object({ webhookId: Id, eventId: Id }).strict();
export type RedeliverWebhookInput = z.infer<typeof RedeliverWebhookInput>;
