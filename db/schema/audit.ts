import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const auditActions = [
  'node.register',
  'node.topology',
  'reservation.create',
  'reservation.update',
  'reservation.cancel',
  'reservation.release',
  'reservation.reclaim',
  'reservation.reaffirm',
  'vm.place',
  'vm.terminate',
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Append-only audit trail (docs/product.md §7). `seq` orders events and backs the cursor; the actor
 * columns are kept in full and filtered per reader when read (docs/product.md §2).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    action: text('action', { enum: auditActions }).notNull(),
    actorOrgId: text('actor_org_id').notNull(),
    actorUserId: text('actor_user_id'),
    actorApiKeyId: text('actor_api_key_id'),
    via: text('via', { enum: ['console', 'api'] }).notNull(),
    nodeId: text('node_id').notNull(),
    reservationId: text('reservation_id'),
    unitIds: text('unit_ids').array().notNull(),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('audit_node_idx').on(t.nodeId, t.seq), index('audit_reservation_idx').on(t.reservationId, t.seq)],
);
