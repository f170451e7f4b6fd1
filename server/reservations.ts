import { and, arrayContains, asc, eq, gt, or } from 'drizzle-orm';
import { z } from 'zod';
import { reservations } from '@/db/schema';
import { findNode, findVisibleReservation, mayManageMarket, maySeeReservation, relationTo } from './access';
import { isOperator, type Ctx } from './context';
import { Id } from './ids';
import { Limit, LimitNumber, decodeCursor, toPage } from './pagination';
import { loadReservationUnits, loadUnitPositions, toReservation, type Reservation } from './reservation-view';

export const GetReservationInput = z.object({ nodeId: Id, reservationId: Id });
export type GetReservationInput = z.infer<typeof GetReservationInput>;

/**
 * One reservation, with its status at `ctx.now` (SPEC §4).
 * @throws DomainError not_found for an unknown node, a reservation under another node, or
 *   one the caller may not see (SPEC §2).
 */
export async function getReservation({ ctx, input }: { ctx: Ctx; input: GetReservationInput }): Promise<Reservation> {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const { reservation } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  const [units, positions] = await Promise.all([loadReservationUnits(ctx.db, node.id, [reservation.id]), loadUnitPositions(ctx.db, node.id)]);
  return toReservation(reservation, units.get(reservation.id) ?? [], positions, node.topologyGen, ctx.now);
}

export const ListNodeReservationsInput = z.object({ nodeId: Id, limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNodeReservationsInput = z.infer<typeof ListNodeReservationsInput>;
/** Query of `GET /v1/nodes/{nodeId}/reservations`. */
export const ListNodeReservationsQuery = z.object({ limit: Limit.optional(), cursor: z.string().optional() }).strict();

/** What the acting org may do with a reservation; the console offers only these (SPEC §6). */
export type ReservationAction = 'release' | 'reclaim';

/**
 * The reservations on a node that the caller may see (SPEC §2), by id, paginated, each with
 * the actions the caller may take on it (the console offers only those).
 * @returns `{ items: [{ reservation, actions }], nextCursor? }`
 * @throws DomainError not_found for an unknown node.
 */
export async function listNodeReservations({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: ListNodeReservationsInput;
}): Promise<{ items: { reservation: Reservation; actions: ReservationAction[] }[]; nextCursor?: string }> {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const limit = input.limit ?? 100;
  const visibleToCaller =
    isOperator(ctx) || node.ownerOrgId === ctx.orgId
      ? undefined
      : or(arrayContains(reservations.allowedOrgIds, [ctx.orgId]), arrayContains(reservations.managingOrgIds, [ctx.orgId]));
  const rows = await ctx.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.nodeId, node.id), visibleToCaller, input.cursor !== undefined ? gt(reservations.id, decodeCursor(input.cursor)) : undefined))
    .orderBy(asc(reservations.id))
    .limit(limit + 1);
  const page = toPage(rows, limit, (r) => r.id);
  const visible = page.items.map((r) => ({ r, rel: relationTo(ctx, node, r) })).filter(({ rel }) => maySeeReservation(rel));
  const [units, positions] = await Promise.all([loadReservationUnits(ctx.db, node.id, visible.map(({ r }) => r.id)), loadUnitPositions(ctx.db, node.id)]);
  const items = visible.map(({ r, rel }) => {
    const reservation = toReservation(r, units.get(r.id) ?? [], positions, node.topologyGen, ctx.now);
    const open = reservation.status !== 'cancelled' && reservation.status !== 'expired';
    const actions: ReservationAction[] = mayManageMarket(rel) && open ? (reservation.status === 'active' ? ['release', 'reclaim'] : ['reclaim']) : [];
    return { reservation, actions };
  });
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
