import { vmUnits, vms } from '@/db/schema';
import { writeAuditEvent } from '../audit/write';
import { openVmIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { newId, sortUnitIds } from '../ids';
import { requireKnownUnits } from '../nodes/internal';
import { lockNodeSettled } from '../scheduled-reclaims/settle';
import { computeUnitViews, loadUnitInputs } from '../nodes/unit-states';
import { assertReservationAction } from '../policy';
import { findVisibleReservation, occupiedUnits } from '../reservations/internal';
import { reservationStatus } from '../reservations/view';
import type { PlaceVmInput } from './schemas';
import { toVmView, type VmView } from './view';
import { recipientsOf } from '../events/write';

/**
 * Places a VM on some of a node's units (docs/product.md §5.3).
 *
 * @param input.unitIds 1–64 distinct units of the node.
 * @param input.tier `reserved` (on units the active reservation holds and has not released;
 *   the acting org must be in its audience), `spot` (units `released` or `free`), or
 *   `on-demand` (units `free`), by the states of docs/product.md §3 at `ctx.now`.
 * @returns the VM, running, owned by the acting org.
 * @throws DomainError not_found (node; reservation invisible), forbidden (reserved tier and
 *   not in the audience), reservation_not_active / reservation_needs_review, unknown_unit,
 *   unit_occupied (before unit_unavailable), unit_unavailable.
 *
 * Takes the node lock first, like every writer on a node, so a placement racing a reclaim
 * either commits before it (and is terminated by it) or sees its result.
 */
export async function placeVm({ ctx, input }: { ctx: Ctx; input: PlaceVmInput }): Promise<VmView> {
  return inTransaction(ctx, async (tx) => {
    const { node, ctx: lctx } = await lockNodeSettled(tx, ctx, input.nodeId);
    if (input.tier === 'reserved') {
      const { reservation, relation } = await findVisibleReservation(tx, ctx, node, input.reservationId!, 'write');
      assertReservationAction('placeReservedVm', relation, { id: reservation.id, status: reservationStatus(reservation, node.topologyGen, lctx.now) });
    }

    const inputs = await loadUnitInputs(tx, [node.id], lctx.now);
    const nodeUnits = inputs.units.get(node.id) ?? [];
    const positions = new Map(nodeUnits.map((u) => [u.unitId, u.position]));
    requireKnownUnits(node, positions, input.unitIds);

    const named = new Set(input.unitIds);
    const busy = occupiedUnits(
      ctx,
      node,
      (inputs.running.get(node.id) ?? []).filter((r) => named.has(r.unitId)),
      positions,
      false,
    );
    if (busy) throw new DomainError('unit_occupied', `Units ${busy.unitIds.join(', ')} already run a VM.`, busy);

    const views = computeUnitViews(ctx, node, nodeUnits, inputs.holds.get(node.id) ?? [], [], lctx.now);
    const holds = new Map((inputs.holds.get(node.id) ?? []).filter((h) => h.startsAt <= lctx.now).map((h) => [h.unitId, h]));
    const unavailable = views
      .filter((u) => named.has(u.id))
      .filter((u) => {
        if (input.tier === 'spot') return u.state !== 'released' && u.state !== 'free';
        if (input.tier === 'on-demand') return u.state !== 'free';
        const hold = holds.get(u.id);
        return u.state !== 'reserved' || hold?.reservationId !== input.reservationId;
      })
      .map((u) => u.id);
    if (unavailable.length > 0) {
      const what =
        input.tier === 'spot' ? 'released or free' : input.tier === 'on-demand' ? 'free' : `held by reservation "${input.reservationId}" and not released`;
      throw new DomainError('unit_unavailable', `Units ${unavailable.join(', ')} are not ${what}, so a ${input.tier} VM cannot use them.`, {
        unitIds: unavailable,
      });
    }

    const id = newId('vm');
    const [vm] = await tx
      .insert(vms)
      .values({ id, nodeId: node.id, orgId: ctx.orgId, tier: input.tier, reservationId: input.reservationId ?? null, status: 'running', startedAt: lctx.now })
      .returning();
    await tx.insert(vmUnits).values(input.unitIds.map((unitId) => ({ vmId: id, nodeId: node.id, unitId, running: true })));
    // Each unit's run names the reservation holding it now: whose capacity the VM uses (§5.8).
    const units = input.unitIds.map((unitId) => ({ unitId, reservationId: holds.get(unitId)?.reservationId ?? null }));
    await openVmIntervals(tx, { nodeId: node.id, vmId: id, startsAt: lctx.now, units });
    const unitIds = sortUnitIds(input.unitIds, positions);
    await writeAuditEvent(tx, lctx, {
      action: 'vm.place',
      nodeId: node.id,
      reservationId: input.reservationId,
      // The managing orgs of the reservations holding its units see it on their grid (§2).
      to: { ...recipientsOf(node, undefined, ctx.orgId), managingOrgIds: [...new Set(units.flatMap((u) => holds.get(u.unitId)?.managingOrgIds ?? []))] },
      unitIds,
      details: { vmId: id, tier: input.tier },
    });
    // A spot buyer learns its units' scheduled reclaim in the answer itself (docs/product.md §5.6).
    const reclaimAt = nodeUnits
      .filter((u) => named.has(u.unitId) && u.reclaimAt)
      .reduce<Date | null>((min, u) => (!min || u.reclaimAt! < min ? u.reclaimAt! : min), null);
    return toVmView(ctx, vm!, unitIds, positions, true, reclaimAt);
  });
}
