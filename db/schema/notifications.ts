import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';

/**
 * What a `vm.reclaimed` notification says (docs/product.md §5 Objects "Notification"): which VM
 * ended, on which node and units, when and why — never the holder or the reservation (§9 h).
 */
export type VmReclaimedDetails = {
  vmId: string;
  nodeId: string;
  unitIds: string[];
  terminationReason: 'reclaimed';
  terminatedAt: string;
  reason?: string;
};

/** Messages to one org, e.g. "your spot VM was terminated by a reclaim". */
export const notifications = pgTable(
  'notifications',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    kind: text('kind', { enum: ['vm.reclaimed'] }).notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<VmReclaimedDetails>().notNull(),
    /** When the org marked it read (the first time); null while unread. */
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('notifications_org_idx').on(t.orgId, t.seq)],
);
