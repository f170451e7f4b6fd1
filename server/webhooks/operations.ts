/** The acting org's webhook endpoints (docs/product.md §5.7): one declaration each (server/operation.ts). REST's `{id}` fills `webhookId`. */
import { Webhook, WebhookAttempt, WebhookAttemptPage, WebhookPage, WebhookWithSecret } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { createWebhook } from './create';
import { getWebhook, listWebhookAttempts, listWebhooks } from './list';
import { redeliverWebhook } from './redeliver';
import { deleteWebhook } from './remove';
import { rotateWebhookSecret } from './rotate-secret';
import { CreateWebhookInput, ListWebhookAttemptsInput, ListWebhooksInput, RedeliverWebhookInput, UpdateWebhookInput, WebhookKey } from './schemas';
import { updateWebhook } from './update';

const own = "One of the acting org's endpoints; another org's is 404, the platform operator's call included.";

export const webhookOperations = {
  list: operation({
    verb: listWebhooks,
    input: ListWebhooksInput,
    kind: 'query',
    console: 'webhooks.page',
    rest: {
      method: 'GET',
      path: '/v1/webhooks',
      operationId: 'listWebhooks',
      tag: 'Webhooks',
      summary: "List the acting org's webhook endpoints",
      description: 'By id; never a secret. Every org sees only its own endpoints.',
      response: WebhookPage,
      responseDescription: 'A page of endpoints.',
      errors: [],
    },
  }),
  create: operation({
    verb: createWebhook,
    input: CreateWebhookInput,
    kind: 'mutation',
    console: 'webhooks.create',
    rest: {
      method: 'POST',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      tag: 'Webhooks',
      summary: 'Add a webhook endpoint',
      description:
        "Delivers the acting org's events (of `types`, or all) from now on, per the Standard Webhooks spec: POST `{ id, type, timestamp, data }` with webhook-id (the event's id, the same on every retry), webhook-timestamp and webhook-signature. In the feed's order, one at a time, at least once; a failure is retried with exponential backoff (5 s doubling to an hour) before later events, and 24 h of failures disable the endpoint (a webhook.disabled notification and event). https only; the address is checked at every delivery; no redirects; 10 s timeout. At most 20 per org (409 limit_reached). The answer holds the signing secret, shown this once; no Idempotency-Key, as an answer holding a secret is never stored.",
      status: 201,
      response: WebhookWithSecret,
      responseDescription: 'The endpoint, with its signing secret.',
      errors: ['limit_reached'],
      idempotency: 'refused',
    },
  }),
  get: operation({
    verb: getWebhook,
    input: WebhookKey,
    kind: 'query',
    console: 'webhooks.page',
    rest: {
      method: 'GET',
      path: '/v1/webhooks/{id}',
      params: { id: 'webhookId' },
      operationId: 'getWebhook',
      tag: 'Webhooks',
      summary: 'Get a webhook endpoint',
      description: `${own} With how delivery stands: failed attempts, since when, the next try.`,
      response: Webhook,
      responseDescription: 'The endpoint.',
      errors: ['not_found'],
    },
  }),
  update: operation({
    verb: updateWebhook,
    input: UpdateWebhookInput,
    kind: 'mutation',
    console: 'webhooks.update',
    rest: {
      method: 'PATCH',
      path: '/v1/webhooks/{id}',
      params: { id: 'webhookId' },
      operationId: 'updateWebhook',
      tag: 'Webhooks',
      summary: 'Change a webhook endpoint',
      description: `${own} url, types, description, enabled. Enabling it again (also after it was disabled for failing) clears its failures and resumes from the first event it has not delivered.`,
      response: Webhook,
      responseDescription: 'The endpoint.',
      errors: ['not_found'],
    },
  }),
  delete: operation({
    verb: deleteWebhook,
    input: WebhookKey,
    kind: 'mutation',
    console: 'webhooks.delete',
    rest: {
      method: 'DELETE',
      path: '/v1/webhooks/{id}',
      params: { id: 'webhookId' },
      operationId: 'deleteWebhook',
      tag: 'Webhooks',
      summary: 'Delete a webhook endpoint',
      description: `${own} With its secrets and delivery log; nothing more is sent to it.`,
      response: Webhook,
      responseDescription: 'The endpoint as it was.',
      errors: ['not_found'],
    },
  }),
  rotateSecret: operation({
    verb: rotateWebhookSecret,
    input: WebhookKey,
    kind: 'mutation',
    console: 'webhooks.rotate-secret',
    rest: {
      method: 'POST',
      path: '/v1/webhooks/{id}/rotate-secret',
      params: { id: 'webhookId' },
      operationId: 'rotateWebhookSecret',
      tag: 'Webhooks',
      summary: "Rotate a webhook endpoint's signing secret",
      description: `${own} The old secret keeps signing beside the new one for 24 h (two signatures), so a receiver can switch without losing a delivery. The new secret is in this answer only; no Idempotency-Key.`,
      response: WebhookWithSecret,
      responseDescription: 'The endpoint, with its new signing secret.',
      errors: ['not_found'],
      idempotency: 'refused',
    },
  }),
  attempts: operation({
    verb: listWebhookAttempts,
    input: ListWebhookAttemptsInput,
    kind: 'query',
    console: 'webhooks.attempts',
    rest: {
      method: 'GET',
      path: '/v1/webhooks/{id}/attempts',
      params: { id: 'webhookId' },
      operationId: 'listWebhookAttempts',
      tag: 'Webhooks',
      summary: "A webhook endpoint's delivery log",
      description: `${own} Every attempt, newest first: the event, when, the status code, the latency, why it failed.`,
      response: WebhookAttemptPage,
      responseDescription: 'A page of attempts.',
      errors: ['not_found'],
    },
  }),
  redeliver: operation({
    verb: redeliverWebhook,
    input: RedeliverWebhookInput,
    kind: 'mutation',
    console: 'webhooks.redeliver',
    rest: {
      method: 'POST',
      path: '/v1/webhooks/{id}/redeliver',
      params: { id: 'webhookId' },
      operationId: 'redeliverWebhook',
      tag: 'Webhooks',
      summary: 'Send one event to a webhook endpoint again',
      description: `${own} \`eventId\`: one of the org's events still kept (30 days). Sent now, signed as any delivery with the event's own webhook-id; the endpoint's place in the feed does not move. Works on a disabled endpoint too.`,
      response: WebhookAttempt,
      responseDescription: 'The attempt, as the delivery log records it.',
      errors: ['not_found'],
    },
  }),
} satisfies OperationGroup;
