import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { nodes } from './nodes';

/**
 * What a unit spends an interval doing (docs/product.md §5.8):
 * - `reserved`: a reservation holds it (its period; a pending reservation's lies ahead);
 * - `released`: the holder put it on the spot market;
 * - `vm`: a VM runs on it;
 * - `needs-review`: its reservation was written against an older topology (withheld).
 */
export const unitIntervalKinds = ['reserved', 'released', 'vm', 'needs-review'] as const;
export type UnitIntervalKind = (typeof unitIntervalKinds)[number];

/**
 * Why an interval ended before its planned end. Null on an interval that ran to its end (its
 * reservation's `endsAt`) or is still open.
 */
export const unitIntervalEnds = ['cancel', 'shrink', 'reclaim', 'terminate', 'reaffirm'] as const;
export type UnitIntervalEnd = (typeof unitIntervalEnds)[number];

/**
 * The record of unit intervals, `[startsAt, endsAt)` per unit (docs/product.md §5.8), written
 * by the verbs in the transaction of the change, so that time views never rebuild history from
 * audit details. While `open`, `endsAt` is the plan (the reservation's `endsAt`, or null: no end
 * known) and a later change may move or cut it; a closed row is history and is never written
 * again. An interval cut before it began is deleted: it never happened.
 *
 * `reservationId` names the reservation whose reserved, released or needs-review interval the
 * row is; on a `vm` row, the reservation that held the unit when the VM was placed (null: a
 * free unit), which is what per-reservation utilisation counts as "used by spot".
 */
export const unitIntervals = pgTable(
  'unit_intervals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    unitId: text('unit_id').notNull(),
    kind: text('kind', { enum: unitIntervalKinds }).notNull(),
    reservationId: text('reservation_id'),
    vmId: text('vm_id'),
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }),
    open: boolean('open').notNull().default(true),
    endedBy: text('ended_by', { enum: unitIntervalEnds }),
  },
  (t) => [
    // The node's timeline over a window (rows starting before its end).
    index('unit_intervals_node_idx').on(t.nodeId, t.startsAt),
    // A reservation's utilisation and calendar (a kind's rows), and the verbs' one probe per unit
    // and kind for its open row: of a reservation's rows of one kind on one unit, only the last
    // written can be open (server/intervals/record.ts). No index names `open`, `ends_at` or `ended_by`,
    // so closing or moving a row is a HOT update that writes no index entry
    // (docs/performance.md, "Fewer rows a reclaim writes").
    index('unit_intervals_reservation_idx').on(t.nodeId, t.reservationId, t.kind, t.unitId, t.id),
    // Terminate and reclaim close a VM's rows.
    index('unit_intervals_vm_idx')
      .on(t.vmId)
      .where(sql`${t.vmId} is not null`),
    check('unit_intervals_period', sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    check('unit_intervals_vm', sql`(${t.kind} = 'vm') = (${t.vmId} is not null)`),
    check('unit_intervals_reservation', sql`${t.kind} = 'vm' or ${t.reservationId} is not null`),
  ],
);
