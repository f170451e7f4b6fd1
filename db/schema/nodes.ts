import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';

/** A GPU server. `topologyGen` goes up by one whenever its unit list changes (docs/product.md §5.4). */
export const nodes = pgTable(
  'nodes',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    ownerOrgId: text('owner_org_id')
      .notNull()
      .references(() => orgs.id),
    topologyGen: integer('topology_gen').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  // The fleet's sorts (by a stored column, then id: the keyset) and its search by id or name
  // (trigram indexes: ILIKE '%q%' without reading every node; migration 0013 creates pg_trgm).
  (t) => [
    index('nodes_owner_idx').on(t.ownerOrgId, t.id),
    index('nodes_name_idx').on(t.name, t.id),
    index('nodes_created_at_idx').on(t.createdAt, t.id),
    index('nodes_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('nodes_id_trgm_idx').using('gin', t.id.op('gin_trgm_ops')),
    // Only a node whose topology changed can have a needs-review reservation (one written against an older generation).
    index('nodes_topology_changed_idx')
      .on(t.id)
      .where(sql`${t.topologyGen} > 1`),
  ],
);

/** The node's current units, in display order (`position`). */
export const nodeUnits = pgTable(
  'node_units',
  {
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    unitId: text('unit_id').notNull(),
    position: integer('position').notNull(),
    model: text('model'),
    memoryGiB: integer('memory_gib'),
    nvlinkDomain: text('nvlink_domain'),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.unitId] }), unique('node_units_position_uq').on(t.nodeId, t.position)],
);

export type TopologyUnit = { id: string; model?: string; memoryGiB?: number; nvlinkDomain?: string };

/** Every generation's unit list, kept so the console can show what a topology change did. */
export const nodeTopologies = pgTable(
  'node_topologies',
  {
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    gen: integer('gen').notNull(),
    units: jsonb('units').$type<TopologyUnit[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.gen] })],
);
