import { writeAuditEvent } from '../audit/write';
import { closeIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { sortUnitIds } from '../ids';
import { assertExpectedTopologyGen } from '../nodes/internal';
import { openReservationSettled } from '../scheduled-reclaims/settle';
import { requireAction, saveReservation } from './internal';
import type { ReaffirmInput } from './schemas';
import { reservationStatus, toReservation, type Reservation } from './view';
import { recipientsOf } from '../events/write';

/**
 * Re-affirms a needs-review reservation against the node's current topology (docs/product.md §5.4):
 * sets its topologyGen to the node's, so it grants its units again. Operator only. A
 * reservation already at the node's generation is left as it is (nothing written).
 * @param input.reason recorded in the audit trail and kept as the reservation's reason.
 * @param input.expectedTopologyGen the node's generation the operator reviewed the diff against:
 *   another is 409 topology_changed (the re-affirm must not approve a change nobody saw).
 * @returns the Reservation, with its status recomputed.
 * @throws DomainError not_found, forbidden, reservation_not_active (cancelled or expired),
 *   topology_changed (`topologyGen`: the node's current one), unit_missing (reserved units the
 *   topology no longer has: shrink it with PATCH first).
 */
export async function reaffirm({ ctx, input }: { ctx: Ctx; input: ReaffirmInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const s = await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
    const { node, reservation: r, positions } = s;
    requireAction(s, 'reaffirm');
    assertExpectedTopologyGen(node, input.expectedTopologyGen);
    if (r.topologyGen === node.topologyGen) return toReservation(r, s.units, positions, node.topologyGen, s.ctx.now);
    const missing = s.units.map((u) => u.unitId).filter((u) => !positions.has(u));
    if (missing.length) {
      const unitIds = sortUnitIds(missing, positions);
      throw new DomainError(
        'unit_missing',
        `Units ${unitIds.join(', ')} are no longer on node "${node.id}"; remove them from the reservation (PATCH reservedUnitIds) before re-affirming.`,
        { unitIds },
      );
    }
    const updated = await saveReservation(tx, s, input.reason, { topologyGen: node.topologyGen });
    await closeIntervals(tx, { nodeId: node.id, reservationId: r.id, kinds: ['needs-review'] }, s.ctx.now, 'reaffirm');
    await writeAuditEvent(tx, s.ctx, {
      action: 'reservation.reaffirm',
      nodeId: node.id,
      reservationId: r.id,
      to: recipientsOf(node, r),
      unitIds: sortUnitIds(
        s.units.map((u) => u.unitId),
        positions,
      ),
      reason: input.reason || undefined,
      details: { fromGen: r.topologyGen, toGen: node.topologyGen, status: reservationStatus(updated, node.topologyGen, s.ctx.now) },
    });
    return toReservation(updated, s.units, positions, node.topologyGen, s.ctx.now);
  });
}
