import type { Tx } from '@/db/client';
import { auditEvents, type AuditAction } from '@/db/schema';
import type { Ctx } from '../context';
import { newId } from '../ids';

/**
 * Appends one audit event in the caller's transaction, so the change and its record commit
 * or vanish together (docs/product.md §7: audit events are append-only).
 * @param event.unitIds in the node's unit order.
 */
export async function writeAuditEvent(
  tx: Tx,
  ctx: Ctx,
  event: { action: AuditAction; nodeId: string; reservationId?: string; unitIds: string[]; reason?: string; details: Record<string, unknown> },
): Promise<void> {
  await tx.insert(auditEvents).values({
    id: newId('evt'),
    at: ctx.now,
    action: event.action,
    actorOrgId: ctx.orgId,
    actorUserId: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
    actorApiKeyId: ctx.actor.kind === 'apiKey' ? ctx.actor.apiKeyId : null,
    via: ctx.via,
    nodeId: event.nodeId,
    reservationId: event.reservationId ?? null,
    unitIds: event.unitIds,
    reason: event.reason ?? null,
    details: event.details,
  });
}
