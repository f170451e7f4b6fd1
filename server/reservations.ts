import { z } from 'zod';
import { findNode, findVisibleReservation } from './access';
import type { Ctx } from './context';
import { Id } from './ids';
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
  const [units, positions] = await Promise.all([loadReservationUnits(ctx.db, [reservation.id]), loadUnitPositions(ctx.db, node.id)]);
  return toReservation(reservation, units.get(reservation.id) ?? [], positions, node.topologyGen, ctx.now);
}
