import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditActions, auditEvents, nodes, notifications, reservations } from '@/db/schema';
import { isOperator, platformOrgId, type Ctx } from './context';
import { DomainError } from './errors';
import { Id } from './ids';
import { Limit, LimitNumber, decodeCursor, toPage } from './pagination';
import { Timestamp } from './reservation-context';

/** A cursor over an append-only sequence. @throws DomainError invalid_request */
function decodeSeqCursor(cursor: string): number {
  const key = decodeCursor(cursor);
  const seq = /^\d{1,15}$/.test(key) ? Number(key) : NaN;
  if (!Number.isSafeInteger(seq)) throw new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous page unchanged.', { errors: [{ path: 'query.cursor', message: 'is not a cursor this API returned' }] });
  return seq;
}

/** The audit event object (SPEC §5 Objects). */
export type AuditEventView = {
  id: string;
  at: string;
  action: (typeof auditActions)[number];
  actorOrgId?: string;
  via: 'console' | 'api';
  nodeId: string;
  reservationId?: string;
  unitIds: string[];
  reason?: string;
  details: Record<string, unknown>;
};

const AuditFilters = z.object({
  nodeId: Id.optional(),
  reservationId: Id.optional(),
  action: z.enum(auditActions).optional(),
  since: Timestamp.optional(),
  until: Timestamp.optional(),
  cursor: z.string().optional(),
});
export const ListAuditInput = AuditFilters.extend({ limit: LimitNumber.optional() }).strict();
export type ListAuditInput = z.infer<typeof ListAuditInput>;
/** Query of `GET /v1/audit`. */
export const ListAuditQuery = AuditFilters.extend({ limit: Limit.optional() }).strict();

/**
 * The audit events the caller may see, newest first (SPEC §2 "read the audit trail": always
 * a filtered list, never 403): the operator all; a node owner those on its nodes; a managing
 * org those of reservations it manages; everyone their own actions. `actorOrgId` shows only
 * to the operator, to the actor itself, and when the actor is the platform, the node owner or
 * a managing org of the event's reservation.
 * @returns `{ items, nextCursor? }`
 */
export async function listAuditEvents({ ctx, input }: { ctx: Ctx; input: ListAuditInput }): Promise<{ items: AuditEventView[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const operator = isOperator(ctx);
  const me = ctx.orgId;
  const after = input.cursor !== undefined ? decodeSeqCursor(input.cursor) : undefined;
  const visible = operator
    ? undefined
    : sql`(${auditEvents.actorOrgId} = ${me} or ${nodes.ownerOrgId} = ${me} or ${me} = any(coalesce(${reservations.managingOrgIds}, '{}')))`;
  const actorShown = operator
    ? sql<boolean>`true`
    : sql<boolean>`(${auditEvents.actorOrgId} = ${me} or ${auditEvents.actorOrgId} = ${platformOrgId()} or ${auditEvents.actorOrgId} = ${nodes.ownerOrgId} or ${auditEvents.actorOrgId} = any(coalesce(${reservations.managingOrgIds}, '{}')))`;
  const rows = await ctx.db
    .select({ e: auditEvents, actorShown })
    .from(auditEvents)
    .leftJoin(nodes, eq(nodes.id, auditEvents.nodeId))
    .leftJoin(reservations, and(eq(reservations.nodeId, auditEvents.nodeId), eq(reservations.id, auditEvents.reservationId)))
    .where(
      and(
        visible,
        input.nodeId ? eq(auditEvents.nodeId, input.nodeId) : undefined,
        input.reservationId ? eq(auditEvents.reservationId, input.reservationId) : undefined,
        input.action ? eq(auditEvents.action, input.action) : undefined,
        input.since ? gte(auditEvents.at, input.since) : undefined,
        input.until ? lt(auditEvents.at, input.until) : undefined,
        after !== undefined ? lt(auditEvents.seq, after) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(limit + 1);
  const page = toPage(rows, limit, (r) => String(r.e.seq));
  return {
    items: page.items.map(({ e, actorShown: shown }) => ({
      id: e.id,
      at: e.at.toISOString(),
      action: e.action,
      ...(shown ? { actorOrgId: e.actorOrgId } : {}),
      via: e.via,
      nodeId: e.nodeId,
      ...(e.reservationId ? { reservationId: e.reservationId } : {}),
      unitIds: e.unitIds,
      ...(e.reason ? { reason: e.reason } : {}),
      details: e.details,
    })),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

/** A notification object: what happened to the acting org's workloads. */
export type NotificationView = { id: string; at: string; kind: 'vm.reclaimed'; message: string; details: Record<string, unknown> };

export const ListNotificationsInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNotificationsInput = z.infer<typeof ListNotificationsInput>;
export const ListNotificationsQuery = ListNotificationsInput.extend({ limit: Limit.optional() });

/**
 * The acting org's notifications, newest first (SPEC §5; §6: an evicted tenant learns which
 * VM was terminated, when and why).
 */
export async function listNotifications({ ctx, input }: { ctx: Ctx; input: ListNotificationsInput }): Promise<{ items: NotificationView[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? decodeSeqCursor(input.cursor) : undefined;
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.orgId, ctx.orgId), after !== undefined ? lt(notifications.seq, after) : undefined))
    .orderBy(desc(notifications.seq))
    .limit(limit + 1);
  const page = toPage(rows, limit, (n) => String(n.seq));
  return {
    items: page.items.map((n) => ({ id: n.id, at: n.at.toISOString(), kind: n.kind, message: n.message, details: n.details })),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
