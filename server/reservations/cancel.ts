import { reservationUnits } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { closeIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { sortUnitIds } from '../ids';
import { lapseForReservation, openReservationSettled } from '../scheduled-reclaims/settle';
import { requireAction, saveReservation } from './internal';
import type { CancelReservationInput } from './schemas';
import { toReservation, type Reservation } from './view';
import { dropMilestones } from '../events/milestones';
import { recipientsOf } from '../events/write';

/**
 * Cancels a pending, active or needs-review reservation (docs/product.md §5 Cancel). Its fields stay as
 * they were, for the record; its units stop being held (they show free or occupied) and
 * running VMs keep running. Operator or node owner (§2).
 * @returns the Reservation, status cancelled.
 * @throws DomainError not_found, forbidden, reservation_not_active (already cancelled or expired).
 */
export async function cancelReservation({ ctx, input }: { ctx: Ctx; input: CancelReservationInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const s = await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
    requireAction(s, 'cancel');
    const updated = await saveReservation(tx, s, input.reason, { cancelledAt: s.ctx.now });
    // Cancelled rows leave the exclusion constraint, so the units can be reserved again.
    await tx
      .update(reservationUnits)
      .set({ cancelled: true })
      .where(and(eq(reservationUnits.nodeId, s.node.id), eq(reservationUnits.reservationId, s.reservation.id)));
    // Its intervals end now; a pending one's never began (docs/product.md §5.8).
    await closeIntervals(tx, { nodeId: s.node.id, reservationId: s.reservation.id }, s.ctx.now, 'cancel');
    // A cancelled reservation neither starts nor expires (§5.7).
    await dropMilestones(tx, s.node.id, s.reservation.id);
    await writeAuditEvent(tx, s.ctx, {
      action: 'reservation.cancel',
      nodeId: s.node.id,
      reservationId: s.reservation.id,
      to: recipientsOf(s.node, s.reservation),
      unitIds: sortUnitIds(
        s.units.map((u) => u.unitId),
        s.positions,
      ),
      reason: input.reason || undefined,
      details: { previousStatus: s.status },
    });
    // Its pending scheduled reclaims can no longer run (docs/product.md §5.6).
    await lapseForReservation(tx, s.ctx, s.node, s.reservation.id, 'reservation_cancelled');
    return toReservation(updated, s.units, s.positions, s.node.topologyGen, s.ctx.now);
  });
}
