import type { Tx } from '@/db/client';
import { auditEvents, type NodeAuditAction, type OrgAuditAction } from '@/db/schema';
import { actorColumns, type Ctx } from '../context';
import { newId } from '../ids';

/** What an event is about: a node (and maybe one of its reservations), or only the acting org. */
export type AuditSubject =
  | { action: NodeAuditAction; nodeId: string; reservationId?: string }
  // Org-level (docs/product.md §5 Objects): no node, and so no reservation, whose ids are per node.
  | { action: OrgAuditAction; nodeId?: undefined; reservationId?: undefined };

/** An audit event as the verb states it (see `writeAuditEvent`). */
export type AuditEventInput = AuditSubject & { unitIds: string[]; reason?: string; details: Record<string, unknown> };

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
 * Appends one audit event in the caller's transaction, so the change and its record commit
 * or vanish together (docs/product.md §7: audit events are append-only).
 * @param event.nodeId absent exactly for org-level actions (`api_key.*`, `sign_in.lockout`).
 * @param event.unitIds in the node's unit order; `[]` for org-level events.
 */
export async function writeAuditEvent(tx: Tx, ctx: Ctx, event: AuditEventInput): Promise<void> {
  await tx.insert(auditEvents).values(auditEventRow(ctx, event));
}
