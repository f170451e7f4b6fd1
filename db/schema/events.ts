import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The events outbox (docs/product.md §5.7): one row per event and recipient org, written in the
 * transaction of the change it tells of, with the fields that org may see (server/events/catalog.ts).
 * `xid` is the writing transaction's id (`pg_current_xact_id()`): the feed serves a row only once
 * every transaction that began before it has ended (`xid < pg_snapshot_xmin(…)`) and orders by
 * (`xid`, `seq`), so a row committed late is never passed over by a cursor. `seq` only orders the
 * rows of one transaction. Kept 30 days.
 */
export const events = pgTable(
  'events',
  {
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    xid: bigint('xid', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    /** The event's id: the same in every recipient's copy (a webhook's `webhook-id`). */
    id: text('id').notNull(),
    orgId: text('org_id').notNull(),
    type: text('type').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** The node it is about, if any (the console's live pages follow one node). */
    nodeId: text('node_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  // One B-tree only, the feed's: one org's rows in (xid, seq) order after a cursor (seq alone is
  // unique). Every change writes a row per recipient, so each index costs every writer: the purge
  // reads by a BRIN index on `at`, which rows arrive in about the order of.
  (t) => [primaryKey({ columns: [t.orgId, t.xid, t.seq] }), index('events_at_brin').using('brin', t.at)],
);

/** A reservation's moments the job runner tells of once the clock passes them (docs/product.md §5.7). */
export const reservationMilestoneKinds = ['started', 'expired'] as const;
export type ReservationMilestoneKind = (typeof reservationMilestoneKinds)[number];

/**
 * The `reservation.started` / `reservation.expired` events still to emit: a row per reservation
 * and moment ahead, kept by the verbs that move them (create, PATCH `endsAt`, cancel) and deleted
 * by the job runner in the transaction that writes the event — so each is emitted exactly once,
 * whichever instance gets there.
 */
export const reservationMilestones = pgTable(
  'reservation_milestones',
  {
    nodeId: text('node_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    kind: text('kind', { enum: reservationMilestoneKinds }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.reservationId, t.kind] }), index('reservation_milestones_due_idx').on(t.dueAt)],
);
