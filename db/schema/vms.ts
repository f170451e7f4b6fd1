import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { nodes } from './nodes';
import { orgs } from './orgs';
import { reservations } from './reservations';

export const vmTiers = ['reserved', 'spot', 'on-demand'] as const;
export type VmTier = (typeof vmTiers)[number];

/** A workload placed on some of a node's units. */
export const vms = pgTable(
  'vms',
  {
    id: text('id').primaryKey(),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    tier: text('tier', { enum: vmTiers }).notNull(),
    /** With nodeId, names the reservation (ids are unique per node). */
    reservationId: text('reservation_id'),
    status: text('status', { enum: ['running', 'terminated'] })
      .notNull()
      .default('running'),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    terminatedAt: timestamp('terminated_at', { withTimezone: true, precision: 3 }),
    terminationReason: text('termination_reason', { enum: ['reclaimed', 'terminated'] }),
  },
  (t) => [
    index('vms_node_idx').on(t.nodeId, t.status),
    index('vms_org_idx').on(t.orgId),
    foreignKey({ columns: [t.nodeId, t.reservationId], foreignColumns: [reservations.nodeId, reservations.id] }),
  ],
);

/**
 * The units a VM uses. `running` mirrors the VM's status so that a partial unique index can
 * hold "a unit runs at most one running VM" in PostgreSQL; terminated VMs keep their rows
 * (their `unitIds` stay part of the record).
 */
export const vmUnits = pgTable(
  'vm_units',
  {
    vmId: text('vm_id')
      .notNull()
      .references(() => vms.id, { onDelete: 'cascade' }),
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id),
    unitId: text('unit_id').notNull(),
    running: boolean('running').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.vmId, t.unitId] }),
    uniqueIndex('vm_units_one_running_vm_per_unit')
      .on(t.nodeId, t.unitId)
      .where(sql`${t.running}`),
  ],
);
