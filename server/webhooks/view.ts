import type { webhookAttempts, webhookEndpoints } from '@/db/schema';

export type WebhookRow = typeof webhookEndpoints.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/**
 * A webhook endpoint (docs/product.md §5.7 Webhooks): where it delivers, which types, and how
 * delivery stands — never its signing secret, shown once when created or rotated. Unset fields
 * are omitted, never `null`.
 */
export type WebhookView = {
  id: string;
  url: string;
  /** Empty: every type. */
  types: string[];
  description?: string;
  enabled: boolean;
  disabledAt?: string;
  /** `failing`: 24 h of failed deliveries; `disabled`: turned off by the org. */
  disabledReason?: 'failing' | 'disabled';
  createdAt: string;
  updatedAt: string;
  /** Failed attempts at the next event since the last success. */
  attempts: number;
  /** When the current run of failures began. */
  failingSince?: string;
  /** When the next event is tried again. */
  nextAttemptAt?: string;
};

/** Creating an endpoint or rotating its secret: the endpoint and its new secret, shown this once. */
export type WebhookWithSecretView = WebhookView & { secret: string };

/** One delivery attempt, as the endpoint's delivery log shows it. */
export type WebhookAttemptView = {
  id: string;
  eventId: string;
  eventType: string;
  at: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  /** Asked for (Redeliver), not made by the dispatcher. */
  manual: boolean;
};

const iso = (d: Date | null) => (d ? { value: d.toISOString() } : null);

export function toWebhookView(r: WebhookRow): WebhookView {
  const disabledAt = iso(r.disabledAt);
  const failingSince = iso(r.failingSince);
  const nextAttemptAt = iso(r.nextAttemptAt);
  return {
    id: r.id,
    url: r.url,
    types: r.types,
    ...(r.description ? { description: r.description } : {}),
    enabled: r.enabled,
    ...(disabledAt ? { disabledAt: disabledAt.value } : {}),
    ...(r.disabledReason ? { disabledReason: r.disabledReason } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    attempts: r.attempts,
    ...(failingSince ? { failingSince: failingSince.value } : {}),
    ...(nextAttemptAt ? { nextAttemptAt: nextAttemptAt.value } : {}),
  };
}

export function toWebhookAttemptView(a: WebhookAttemptRow): WebhookAttemptView {
  return {
    id: String(a.seq),
    eventId: a.eventId,
    eventType: a.eventType,
    at: a.at.toISOString(),
    ...(a.statusCode !== null ? { statusCode: a.statusCode } : {}),
    latencyMs: a.latencyMs,
    ...(a.error ? { error: a.error } : {}),
    manual: a.manual,
  };
}
