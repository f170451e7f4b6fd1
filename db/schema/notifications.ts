import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';

/** Messages to one org, e.g. "your spot VM was terminated by a reclaim". */
export const notifications = pgTable(
  'notifications',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull().references(() => orgs.id),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    kind: text('kind', { enum: ['vm.reclaimed'] }).notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('notifications_org_idx').on(t.orgId, t.seq)],
);
