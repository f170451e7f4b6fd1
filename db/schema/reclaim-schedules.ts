import { sql } from 'drizzle-orm';
import { bigint, boolean, check, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { nodes } from './nodes';
import { reservations } from './reservations';

export const reclaimScheduleStatuses = ['pending', 'done', 'cancelled', 'lapsed'] as const;
export type ReclaimScheduleStatus = (typeof reclaimScheduleStatuses)[number];

/** Why a schedule lapsed (docs/product.md §5.6): its reservation went first, or its scheduler may no longer reclaim, or it lost every unit. */
export const reclaimScheduleLapses = ['reservation_cancelled', 'reservation_ended', 'scheduler_may_not_reclaim', 'no_units_left'] as const;
export type ReclaimScheduleLapse = (typeof reclaimScheduleLapses)[number];

/** What a done schedule's reclaim did: the VM ids it terminated and skipped, by code point. */
export type ReclaimScheduleOutcome = { terminated: string[]; skipped: string[] };

/**
 * A reclaim to run at `at` (docs/product.md §5.6). Its row is the run's lock: it runs by the
 * change `pending` → `done` under the node lock, in the reclaim's own transaction, so it runs
 * exactly once whichever instance gets there. `unit_ids` is what it names now (units that leave
 * the reservation are dropped); the scheduler (org plus exactly one of a user or a key) is whom
 * the run acts as, with its permission checked again then.
 */
export const reclaimSchedules = pgTable(
  'reclaim_schedules',
  {
    id: text('id').primaryKey(),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    reservationId: text('reservation_id').notNull(),
    unitIds: text('unit_ids').array().notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    reason: text('reason'),
    status: text('status', { enum: reclaimScheduleStatuses }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    createdByOrgId: text('created_by_org_id').notNull(),
    createdByUserId: text('created_by_user_id'),
    createdByApiKeyId: text('created_by_api_key_id'),
    createdByJob: text('created_by_job'),
    outcome: jsonb('outcome').$type<ReclaimScheduleOutcome>(),
    lapseReason: text('lapse_reason', { enum: reclaimScheduleLapses }),
  },
  (t) => [
    foreignKey({ columns: [t.nodeId, t.reservationId], foreignColumns: [reservations.nodeId, reservations.id] }).onDelete('cascade'),
    // The node lock's read (nextReclaimAt) and the sweep: pending rows by time.
    index('reclaim_schedules_pending_node_idx')
      .on(t.nodeId, t.at)
      .where(sql`${t.status} = 'pending'`),
    index('reclaim_schedules_pending_at_idx')
      .on(t.at)
      .where(sql`${t.status} = 'pending'`),
    index('reclaim_schedules_reservation_idx').on(t.nodeId, t.reservationId, t.createdAt, t.id),
    check('reclaim_schedules_one_creator', sql`num_nonnulls(${t.createdByUserId}, ${t.createdByApiKeyId}, ${t.createdByJob}) = 1`),
    check('reclaim_schedules_outcome_when_done', sql`(${t.status} = 'done') = (${t.outcome} is not null)`),
    check('reclaim_schedules_lapse_reason', sql`(${t.status} = 'lapsed') = (${t.lapseReason} is not null)`),
  ],
);

/**
 * The units of pending schedules, one row each: the primary key holds "a unit is in at most
 * one pending schedule of its reservation" (409 already_scheduled names them first). Rows go
 * when their schedule leaves `pending`.
 */
export const reclaimScheduleUnits = pgTable(
  'reclaim_schedule_units',
  {
    nodeId: text('node_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    unitId: text('unit_id').notNull(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => reclaimSchedules.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.reservationId, t.unitId] }), index('reclaim_schedule_units_schedule_idx').on(t.scheduleId)],
);

/**
 * The test clock (docs/product.md §5.6): one offset every instance adds to PostgreSQL's clock,
 * read only when TEST_CLOCK=1 (server/clock.ts). One row at most.
 */
export const testClock = pgTable(
  'test_clock',
  {
    one: boolean('one').primaryKey().default(true),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull(),
  },
  (t) => [check('test_clock_one_row', sql`${t.one}`)],
);
