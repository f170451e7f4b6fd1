import { apiKeys, auditEvents, nodes, reservations } from '@/db/schema';
import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { type Ctx } from '../context';
import { withOrgNames, type Named } from '../orgs/internal';
import { olderThanCursor, toPage } from '../pagination';
import { apiKeysVisibleTo, auditActorShown, auditEventVisibleTo, auditVisibleSeqs, orgIdsNamedWithAuditEvent } from '../policy';
import type { ListAuditInput } from './schemas';
import type { AuditActorKey, AuditEventView } from './view';

/**
 * The audit events the caller may see, newest first (docs/product.md §2 "read the audit trail": always
 * a filtered list, never 403): the operator all; a node owner those on its nodes; a managing
 * org those of reservations it manages; everyone their own actions — so an org-level event (no
 * node, no reservation) shows only to the operator and the actor's org. `actorOrgId` shows only
 * to the operator, to the actor itself, and when the actor is the platform, the node owner or
 * a managing org of the event's reservation. An event an API key made names that key
 * (`actorKey`: id, name, prefix) to the key's own org only — the one org that sees its keys (§2),
 * so an org can tell what each of its keys did. Each event comes with its actor's name where its
 * `actorOrgId` shows (`orgNames`, §9.1 q: the console's, one statement for the page; REST
 * answers the events alone).
 * @returns `{ items, nextCursor? }`
 * @throws DomainError invalid_request for a cursor this API did not hand out, or naming an event
 *   the caller may not see (§8 R6: cursors resolve under the caller's visibility).
 */
export async function listAuditEvents({ ctx, input }: { ctx: Ctx; input: ListAuditInput }): Promise<{ items: Named<AuditEventView>[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? await olderThanCursor(ctx.db, auditEvents, input.cursor, auditEventVisibleTo(ctx)) : undefined;
  const actorShown = auditActorShown(ctx);
  const filters = and(
    input.nodeId ? eq(auditEvents.nodeId, input.nodeId) : undefined,
    input.reservationId ? eq(auditEvents.reservationId, input.reservationId) : undefined,
    input.action ? eq(auditEvents.action, input.action) : undefined,
    input.since ? gte(auditEvents.at, input.since) : undefined,
    input.until ? lt(auditEvents.at, input.until) : undefined,
    after,
  );
  // The page is chosen among the visible events' seqs (index-driven, see auditVisibleSeqs);
  // only its rows are joined to their node and reservation, for actorShown.
  const visible = auditVisibleSeqs(ctx, filters, limit + 1);
  const rows = await ctx.db
    .select({ e: auditEvents, actorShown, key: { id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix } })
    .from(auditEvents)
    .leftJoin(nodes, eq(nodes.id, auditEvents.nodeId))
    .leftJoin(reservations, and(eq(reservations.nodeId, auditEvents.nodeId), eq(reservations.id, auditEvents.reservationId)))
    // The acting key, where the caller may see it: its own org's keys only.
    .leftJoin(apiKeys, and(eq(apiKeys.id, auditEvents.actorApiKeyId), apiKeysVisibleTo(ctx)))
    .where(visible ? and(inArray(auditEvents.seq, visible), filters) : filters)
    .orderBy(desc(auditEvents.seq))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => r.e.id,
    (kept) =>
      withOrgNames(
        ctx,
        kept.map(({ e, actorShown: shown, key }) => toEventView(e, shown, key)),
        (_, i) => orgIdsNamedWithAuditEvent(kept[i]!.actorShown, kept[i]!.e),
      ),
  );
}

/** One row as the caller may see it (`actorOrgId` where `shown`, `actorKey` where the caller sees the key). */
function toEventView(e: typeof auditEvents.$inferSelect, shown: boolean, key: AuditActorKey | null): AuditEventView {
  return {
    id: e.id,
    at: e.at.toISOString(),
    action: e.action,
    ...(shown ? { actorOrgId: e.actorOrgId } : {}),
    ...(key ? { actorKey: key } : {}),
    via: e.via,
    ...(e.nodeId ? { nodeId: e.nodeId } : {}),
    ...(e.reservationId ? { reservationId: e.reservationId } : {}),
    unitIds: e.unitIds,
    ...(e.reason ? { reason: e.reason } : {}),
    details: e.details,
  };
}
