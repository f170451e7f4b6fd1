import type { Ctx } from '../context';
import { loadUnitPositions, readNode } from '../nodes/internal';
import { findVisibleReservation, loadReservationUnits } from './internal';
import type { GetReservationInput } from './schemas';
import { toReservation, type Reservation } from './view';

/**
 * One reservation, with its status at `ctx.now` (docs/product.md §4).
 * @throws DomainError not_found for an unknown node, a reservation under another node, or
 *   one the caller may not see (docs/product.md §2).
 */
export async function getReservation({ ctx, input }: { ctx: Ctx; input: GetReservationInput }): Promise<Reservation> {
  const node = await readNode(ctx, input.nodeId);
  const { reservation } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  const [units, positions] = await Promise.all([loadReservationUnits(ctx.db, node.id, [reservation.id]), loadUnitPositions(ctx.db, node.id)]);
  return toReservation(reservation, units.get(reservation.id) ?? [], positions, node.topologyGen, ctx.now);
}
