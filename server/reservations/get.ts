import type { Ctx } from '../context';
import { readNode } from '../nodes/internal';
import { findVisibleReservation } from './internal';
import type { GetReservationInput } from './schemas';
import { toReservation, type Reservation } from './view';

/**
 * One reservation, with its status at `ctx.now` (docs/product.md §4).
 * @throws DomainError not_found for an unknown node, a reservation under another node, or
 *   one the caller may not see (docs/product.md §2).
 */
export async function getReservation({ ctx, input }: { ctx: Ctx; input: GetReservationInput }): Promise<Reservation> {
  const node = await readNode(ctx, input.nodeId);
  const { reservation, units } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  return toReservation(reservation, units, node.positions, node.topologyGen, ctx.now);
}
