import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';

/**
 * An org's webhook endpoint (docs/product.md §5.7): where its events are delivered, which types,
 * and where delivery stands. Deliveries follow the org's feed in order: `cursor_xid`/`cursor_seq`
 * is the last event delivered (or skipped by its types), `attempts` and `next_attempt_at` the
 * retries of the next one, `failing_since` when the current run of failures began (24 h of it
 * disables the endpoint). `lease_until`/`leased_by`: which app instance delivers to it now — a
 * lease, not a row lock, so no transaction stays open across an HTTP call.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    url: text('url').notNull(),
    /** The event types delivered; empty: every type. */
    types: text('types').array().notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, precision: 3 }),
    /** Why it stopped: `failing` (24 h of failed deliveries) or `disabled` (by a principal of the org). */
    disabledReason: text('disabled_reason', { enum: ['failing', 'disabled'] }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    cursorXid: bigint('cursor_xid', { mode: 'number' }).notNull(),
    cursorSeq: bigint('cursor_seq', { mode: 'number' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }),
    failingSince: timestamp('failing_since', { withTimezone: true, precision: 3 }),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    leasedBy: text('leased_by'),
  },
  (t) => [
    index('webhook_endpoints_org_idx').on(t.orgId, t.id),
    // The dispatcher's pick: the enabled endpoints.
    index('webhook_endpoints_live_idx')
      .on(t.orgId)
      .where(sql`${t.enabled}`),
  ],
);

/**
 * An endpoint's signing secrets (Standard Webhooks `whsec_…`). The current one has no
 * `expires_at`; a rotated-out one keeps signing beside it until its `expires_at`, 24 h on.
 * Kept as they are: the server must sign with them (never shown again after creation or rotation).
 */
export const webhookSecrets = pgTable(
  'webhook_secrets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('webhook_secrets_endpoint_idx').on(t.endpointId)],
);

/** One delivery attempt (the endpoint's delivery log): which event, when, what came back, how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** The HTTP status the endpoint answered; absent when no answer came (refused, timed out). */
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    /** Why it failed, in words: a status outside 2xx, a timeout, a refused address. */
    error: text('error'),
    /** A redelivery someone asked for (the console's "Redeliver"), not the dispatcher's. */
    manual: boolean('manual').notNull().default(false),
  },
  (t) => [index('webhook_attempts_endpoint_idx').on(t.endpointId, t.seq)],
);
