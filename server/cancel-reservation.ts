import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { reservationUnits } from '@/db/schema';
import { requireReservationOwner } from './access';
import { writeAuditEvent } from './audit';
import { inTransaction, type Ctx } from './context';
import { Id, freeText, sortUnitIds } from './ids';
import { openReservation, requireNotEnded, saveReservation } from './reservation-context';
import { toReservation, type Reservation } from './reservation-view';

/** Body of cancel and re-affirm: `{ reason? }` (SPEC §5). */
export const ReasonBody = z.object({ reason: freeText(1000).optional() }).strict();
export const CancelReservationInput = ReasonBody.extend({ nodeId: Id, reservationId: Id });
export type CancelReservationInput = z.infer<typeof CancelReservationInput>;

/**
 * Cancels a pending, active or needs-review reservation (SPEC §5 Cancel). Its fields stay as
 * they were, for the record; its units stop being held (they show free or occupied) and
 * running VMs keep running. Operator or node owner (§2).
 * @returns the Reservation, status cancelled.
 * @throws DomainError not_found, forbidden, reservation_not_active (already cancelled or expired).
 */
export async function cancelReservation({ ctx, input }: { ctx: Ctx; input: CancelReservationInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const s = await openReservation(tx, ctx, input.nodeId, input.reservationId, 'write');
    requireReservationOwner(s.relation, 'cancel this reservation');
    requireNotEnded(s, 'it cannot be cancelled again');
    const updated = await saveReservation(tx, s, input.reason, { cancelledAt: s.ctx.now });
    // Cancelled rows leave the exclusion constraint, so the units can be reserved again.
    await tx.update(reservationUnits).set({ cancelled: true }).where(and(eq(reservationUnits.nodeId, s.node.id), eq(reservationUnits.reservationId, s.reservation.id)));
    await writeAuditEvent(tx, s.ctx, {
      action: 'reservation.cancel',
      nodeId: s.node.id,
      reservationId: s.reservation.id,
      unitIds: sortUnitIds(s.units.map((u) => u.unitId), s.positions),
      reason: input.reason || undefined,
      details: { previousStatus: s.status },
    });
    return toReservation(updated, s.units, s.positions, s.node.topologyGen, s.ctx.now);
  });
}
