/**
 * Verifying webhook deliveries: an org's endpoints receive its events signed per the Standard
 * Webhooks spec (docs/product.md §5.7), so the spec's own library checks them.
 */
import { Webhook } from 'standardwebhooks';
import type { components } from './generated/schema';

type Event = components['schemas']['Event'];
/** A delivery's body: the event as the feed answers it, with `timestamp` for the feed's `at` (docs/product.md §5.7, "What is sent"). */
export type WebhookMessage = Event extends infer E ? (E extends { at: string } ? Omit<E, 'at'> & { timestamp: string } : never) : never;

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function readHeader(headers: HeaderSource, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/**
 * Checks a delivery's signature and age with the endpoint's secret (`whsec_…`) and returns its
 * body (docs/product.md §5.7, webhooks). Pass the raw body exactly as received.
 * @throws WebhookVerificationError (of standardwebhooks) when the signature or timestamp is wrong.
 */
export function verifyWebhook(secret: string, rawBody: string | Buffer, headers: HeaderSource): WebhookMessage {
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const plain = Object.fromEntries(wanted.map((name) => [name, readHeader(headers, name)]));
  return new Webhook(secret).verify(rawBody, plain) as WebhookMessage;
}
