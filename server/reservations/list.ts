import { reservations } from '@/db/schema';
import { and, asc, eq, gt } from 'drizzle-orm';
import { type Ctx } from '../context';
import { findNode, loadUnitPositions } from '../nodes/internal';
import { decodeCursor, toPage } from '../pagination';
import { maySeeReservation, offeredReservationActions, relationTo, reservationVisibleTo, type ReservationAction } from '../policy';
import { loadReservationUnits } from './internal';
import type { ListNodeReservationsInput } from './schemas';
import { toReservation, type Reservation } from './view';

/**
 * The reservations on a node that the caller may see (docs/product.md §2), by id, paginated, each with
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
  const rows = await ctx.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.nodeId, node.id), reservationVisibleTo(ctx, node), input.cursor !== undefined ? gt(reservations.id, decodeCursor(input.cursor)) : undefined))
    .orderBy(asc(reservations.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => r.id, async (kept) => {
    const visible = kept.map((r) => ({ r, rel: relationTo(ctx, node, r) })).filter(({ rel }) => maySeeReservation(rel));
    const [units, positions] = await Promise.all([loadReservationUnits(ctx.db, node.id, visible.map(({ r }) => r.id)), loadUnitPositions(ctx.db, node.id)]);
    return visible.map(({ r, rel }) => {
      const reservation = toReservation(r, units.get(r.id) ?? [], positions, node.topologyGen, ctx.now);
      return { reservation, actions: offeredReservationActions(rel, reservation) };
    });
  });
}
