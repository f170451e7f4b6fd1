import { sql } from 'drizzle-orm';
import { bigserial, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Actions on a node (and maybe one of its reservations): their events carry `nodeId`. */
export const nodeAuditActions = [
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
  'reclaim_schedule.create',
  'reclaim_schedule.update',
  'reclaim_schedule.cancel',
  'reclaim_schedule.lapse',
] as const;

/** Org-level actions (docs/product.md §5 Objects): no node, no reservation, so no `nodeId`. */
export const orgAuditActions = [
  'api_key.create',
  'api_key.revoke',
  'sign_in.lockout',
  'sign_in.unlock',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotate_secret',
  'member.invite',
  'member.join',
  'member.role',
  'member.remove',
] as const;

export const auditActions = [...nodeAuditActions, ...orgAuditActions] as const;
export type AuditAction = (typeof auditActions)[number];
export type NodeAuditAction = (typeof nodeAuditActions)[number];
export type OrgAuditAction = (typeof orgAuditActions)[number];

/**
 * How a principal came (docs/product.md §2, §5 Objects): a console session, an API key, or
 * no request at all — `schedule` is work the platform starts itself (the job runner, the seed,
 * benchmark fixtures) and scheduled work run later on a principal's behalf (§5.6).
 */
export const auditVias = ['console', 'api', 'schedule'] as const;

/**
 * Append-only audit trail (docs/product.md §7). `seq` orders events and backs the cursor; the actor
 * columns are kept in full and filtered per reader when read (docs/product.md §2). The actor is
 * exactly one of a user, an API key or a system job (`actor_job`, e.g. `seed`): a job gets its own
 * column rather than a reused id column because it names no row — user and key ids do, and a
 * reader joining them must never mistake a job name for one.
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
    actorJob: text('actor_job'),
    via: text('via', { enum: auditVias }).notNull(),
    /** Absent for org-level events (`orgAuditActions`). */
    nodeId: text('node_id'),
    reservationId: text('reservation_id'),
    unitIds: text('unit_ids').array().notNull(),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index('audit_node_idx').on(t.nodeId, t.seq),
    index('audit_reservation_idx').on(t.reservationId, t.seq),
    // The audit list's "own actions" branch (server/policy.ts auditVisibleSeqs), newest first.
    index('audit_actor_idx').on(t.actorOrgId, t.seq),
    // Every event names exactly one actor, so a reader never has to guess who acted.
    check('audit_events_one_actor', sql`num_nonnulls(${t.actorUserId}, ${t.actorApiKeyId}, ${t.actorJob}) = 1`),
    // Reservation ids are unique per node only (docs/product.md §9 e): without its node one names nothing.
    check('audit_events_reservation_on_node', sql`${t.reservationId} is null or ${t.nodeId} is not null`),
  ],
);
