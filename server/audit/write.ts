import type { Tx } from '@/db/client';
import { auditEvents, type AuditAction, type NodeAuditAction, type OrgAuditAction } from '@/db/schema';
import type { AuditDetailsOf } from './details';
import { toColumnRecord } from '@/db/prepared';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { actorColumns, type Ctx } from '../context';
import { auditEventTypes } from '../events/catalog';
import { eventRows, eventsJson, insertEventsSql, type EventFact, type Recipients } from '../events/write';
import { newId } from '../ids';

/**
 * What an event is about: a node (and maybe one of its reservations), with the orgs that stand to
 * it now (the recipients of the event it writes, docs/product.md §5.7), or only the acting org.
 */
export type AuditSubject =
  | { action: NodeAuditAction; nodeId: string; reservationId?: string; to: Recipients; eventData?: Record<string, unknown> }
  // Org-level (docs/product.md §5 Objects): no node, and so no reservation, whose ids are per node; no event.
  | { action: OrgAuditAction; nodeId?: undefined; reservationId?: undefined; to?: undefined; eventData?: undefined };

/** Each action with the `details` it records (server/audit/details.ts, the schema the document renders). */
type Detailed = { [A in AuditAction]: { action: A; details: AuditDetailsOf<A> } }[AuditAction];

/** An audit event as the verb states it (see `writeAuditEvent`). */
export type AuditEventInput = AuditSubject & { unitIds: string[]; reason?: string } & Detailed;

/**
 * The row of one audit event: the actor is stored in full (its org, and its user, key or
 * system job) and filtered per reader when read (docs/product.md §2).
 */
export function auditEventRow(ctx: Ctx, event: AuditEventInput): typeof auditEvents.$inferInsert {
  const actor = actorColumns(ctx.actor);
  return {
    id: newId('evt'),
    at: ctx.now,
    action: event.action,
    actorOrgId: ctx.orgId,
    actorUserId: actor.userId,
    actorApiKeyId: actor.apiKeyId,
    actorJob: actor.job,
    via: ctx.via,
    nodeId: event.nodeId ?? null,
    reservationId: event.reservationId ?? null,
    unitIds: event.unitIds,
    reason: event.reason ?? null,
    details: event.details,
  };
}

/**
 * The event an audit event writes (docs/product.md §5.7: one mapping from audit actions,
 * `auditEventTypes`), its data drawn from the audit event's fields and details plus what the
 * verb adds (`eventData`); none for org-level actions.
 */
export function auditEventFact(ctx: Ctx, event: AuditEventInput): EventFact | null {
  const type = auditEventTypes[event.action];
  if (!type || !event.to) return null;
  const base = { nodeId: event.nodeId, reservationId: event.reservationId, unitIds: event.unitIds, reason: event.reason };
  // A PATCH records only what changed; its event carries that as `changes`.
  const data = event.action === 'reservation.update' ? { ...base, changes: event.details } : { ...base, ...event.details };
  const vm = type.startsWith('vm.') ? { orgId: event.to.tenantOrgId } : {};
  return { type, at: ctx.now, nodeId: event.nodeId, data: { ...data, ...vm, ...event.eventData }, to: event.to };
}

/**
 * Appends one audit event in the caller's transaction, so the change and its record commit
 * or vanish together (docs/product.md §7: audit events are append-only), and with it the event
 * it writes to the outbox (§5.7) — one statement either way.
 * @param event.nodeId absent exactly for org-level actions (`api_key.*`, `sign_in.lockout`).
 * @param event.unitIds in the node's unit order; `[]` for org-level events.
 * @param event.to the orgs that stand to the node and reservation now (node actions).
 */
export async function writeAuditEvent(tx: Tx, ctx: Ctx, event: AuditEventInput): Promise<void> {
  const audit = auditJson(auditEventRow(ctx, event));
  const fact = auditEventFact(ctx, event);
  const rows = fact ? eventRows([fact]) : [];
  await tx.execute(rows.length === 0 ? insertAuditSql(audit) : sql`with audit as (${insertAuditSql(audit)}) ${insertEventsSql(eventsJson(rows))}`);
}

const auditColumns = sql.raw(
  Object.values(getTableColumns(auditEvents))
    .map((c) => `"${c.name}"`)
    .filter((name) => name !== '"seq"')
    .join(', '),
);

/**
 * SQL that inserts one audit event given as a jsonb parameter (`jsonb_populate_record`), so that
 * it can be a data-modifying CTE of a statement that writes more (its events, a reclaim's rows).
 * @param json the row as `auditJson` gives it, or a placeholder for it.
 */
export function insertAuditSql(json: unknown): SQL {
  return sql`insert into ${auditEvents} (${auditColumns}) select ${auditColumns} from jsonb_populate_record(null::audit_events, ${json}::jsonb)`;
}

/** An audit row as the jsonb parameter of `insertAuditSql`. */
export function auditJson(row: typeof auditEvents.$inferInsert): string {
  return JSON.stringify(toColumnRecord(auditEvents, row));
}
