import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { nodes } from './nodes';

/**
 * A reservation of some of a node's units for an audience. Status is never stored: it is
 * derived at request time from `cancelledAt`, the period and `topologyGen` (docs/product.md §4).
 * Org id lists are kept sorted by code point so equal states give equal bodies.
 * Ids are unique per node, not globally: a reservation is always addressed under its node, and
 * a global key would let a 409 on create reveal that an invisible reservation exists on some
 * other node (docs/product.md §2: invisible resources are 404, their existence never leaks).
 */
export const reservations = pgTable(
  'reservations',
  {
    id: text('id').notNull(),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    allowedOrgIds: text('allowed_org_ids').array().notNull(),
    managingOrgIds: text('managing_org_ids').array().notNull(),
    contractRef: text('contract_ref'),
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }),
    reason: text('reason'),
    topologyGen: integer('topology_gen').notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.id] })],
);

/**
 * One row per reserved unit, so PostgreSQL can hold the unit-level invariants:
 * - `released` lives on the reserved row itself, so released ⊆ reserved by construction;
 * - the period and `cancelled` are copied from the reservation so that the exclusion
 *   constraint (migration 0001, hand-written: drizzle-kit cannot express EXCLUDE) can keep
 *   non-cancelled reservations of one unit from overlapping.
 */
export const reservationUnits = pgTable(
  'reservation_units',
  {
    reservationId: text('reservation_id').notNull(),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    unitId: text('unit_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }),
    cancelled: boolean('cancelled').notNull().default(false),
    released: boolean('released').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.nodeId, t.reservationId, t.unitId] }),
    foreignKey({ columns: [t.nodeId, t.reservationId], foreignColumns: [reservations.nodeId, reservations.id] }).onDelete('cascade'),
    index('reservation_units_node_unit_idx').on(t.nodeId, t.unitId),
    // No index names `released`: release and reclaim flip it, and an index on it would make
    // every such update non-HOT, maintaining every index of the table (docs/performance.md,
    // issue 23); the fleet's "has released units" filter walks reservation_units_node_unit_idx.
  ],
);

/**
 * One row per org a reservation names, per list: `audience` for each of `allowedOrgIds`,
 * `managing` for each of `managingOrgIds` — the arrays by org, so "the reservations naming this
 * org", in (nodeId, id) order, is a range of the primary key. The GIN indexes on the arrays
 * cannot give that order, and PostgreSQL estimates every org the arrays do not name at 0.5 % of
 * the table, so a list for such an org walked every reservation (docs/performance.md, issue 26).
 * Written only by the triggers of migration 0017 (hand-written: drizzle-kit cannot express
 * them), in the same statement as the reservation row: the arrays stay the one source.
 */
export const reservationOrgs = pgTable(
  'reservation_orgs',
  {
    orgId: text('org_id').notNull(),
    role: text('role', { enum: ['audience', 'managing'] }).notNull(),
    nodeId: text('node_id').notNull(),
    reservationId: text('reservation_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.role, t.nodeId, t.reservationId] }),
    foreignKey({ columns: [t.nodeId, t.reservationId], foreignColumns: [reservations.nodeId, reservations.id] }).onDelete('cascade'),
    index('reservation_orgs_reservation_idx').on(t.nodeId, t.reservationId),
    check('reservation_orgs_role', sql`${t.role} in ('audience', 'managing')`),
  ],
);
