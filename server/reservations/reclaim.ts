import { notifications, reservationUnits, vmUnits, vms } from '@/db/schema';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { newId, sortByCodePoint, sortUnitIds } from '../ids';
import { endVms } from '../vms/internal';
import { openReservation, requireAction, saveReservation } from './internal';
import type { ReclaimInput } from './schemas';
import { holdsNow, toReservation, type ReclaimResult } from './view';

/**
 * Reclaims released units of a reservation and terminates the spot VMs on them, in one
 * transaction (docs/product.md §5.1; docs/product.md §5.1a).
 *
 * @param input.unitIds 1–1024 distinct unit ids, each in the reservation's reservedUnitIds.
 * @param input.dryRun report `wouldTerminate`/`wouldSkip` and write nothing.
 * @param input.reason ≤ 1000 chars, recorded in the audit event (and on the reservation).
 * @param input.expectedTerminate the VM ids the caller previewed; a different set is refused.
 * @returns the reservation (after the change), with `terminated` and `skipped` VM ids, or on a
 *   dry run the unchanged reservation with `wouldTerminate` and `wouldSkip`; ids by code point.
 * @throws DomainError not_found (unknown/invisible node or reservation, §2), forbidden (the
 *   audience, §2), reservation_not_reclaimable (cancelled/expired, step 2),
 *   unit_not_in_reservation (strays, step 3), eviction_set_changed (step 5).
 *
 * Locks: node, reservation, then the affected VMs by id (see server/access.ts). A reclaim
 * that changes nothing writes nothing, not even `updatedAt` (docs/product.md §5.1 "idempotent").
 * A reservation that does not hold its units now (before or after its period, whatever its
 * status — pending or needs-review) terminates and skips nothing: the VMs on them run on
 * another holder's capacity (a narrowing of docs/product.md §5.1 step 4, see `holdsNow`).
 */
export async function reclaim({ ctx, input }: { ctx: Ctx; input: ReclaimInput }): Promise<ReclaimResult> {
  const dryRun = input.dryRun ?? false;
  return inTransaction(ctx, async (tx) => {
    // Step 1: 404 before 403; a dry run only needs a stable picture, not exclusivity.
    const { ctx: lctx, node, reservation, relation, status, units, positions } = await openReservation(tx, ctx, input.nodeId, input.reservationId, dryRun ? 'read' : 'write');
    // Step 1's 403, then step 2: cancelled or expired is not reclaimable.
    requireAction({ reservation, relation, status }, 'reclaim');

    // Step 3.
    const reserved = new Set(units.map((u) => u.unitId));
    const strays = input.unitIds.filter((u) => !reserved.has(u));
    if (strays.length > 0) {
      const ids = sortUnitIds(strays, positions);
      throw new DomainError('unit_not_in_reservation', `Units ${ids.join(', ')} are not in reservation "${reservation.id}"; reclaim only its reservedUnitIds.`, {
        unitIds: ids,
      });
    }

    // Step 4: every running VM on a named unit, locked in id order.
    const onUnits = tx
      .select({ vmId: vmUnits.vmId })
      .from(vmUnits)
      .where(and(eq(vmUnits.nodeId, node.id), eq(vmUnits.running, true), inArray(vmUnits.unitId, input.unitIds)));
    const vmQuery = tx
      .select({ id: vms.id, tier: vms.tier, orgId: vms.orgId })
      .from(vms)
      .where(and(inArray(vms.id, onUnits), eq(vms.status, 'running')))
      .orderBy(asc(vms.id));
    // A reservation evicts only from units it holds now (holdsNow), whatever its status: before
    // its period the VMs on its units run on someone else's capacity (another reservation's
    // released units, or free ones) — also when a topology change made it needs-review, which
    // outranks pending — so its reclaim only takes units off its own future market.
    const affected = holdsNow(reservation, lctx.now) ? await (dryRun ? vmQuery : vmQuery.for('no key update')) : [];
    const toTerminate = affected.filter((v) => v.tier === 'spot');
    const terminate = sortByCodePoint(toTerminate.map((v) => v.id));
    const skipped = sortByCodePoint(affected.filter((v) => v.tier !== 'spot').map((v) => v.id));

    // Step 5.
    if (input.expectedTerminate) {
      const expected = new Set(input.expectedTerminate);
      const same = expected.size === terminate.length && terminate.every((id) => expected.has(id));
      if (!same) {
        throw new DomainError('eviction_set_changed', 'The spot VMs this reclaim would terminate changed since your preview; review the current set and confirm again.', {
          terminate,
        });
      }
    }

    // Step 6.
    const current = toReservation(reservation, units, positions, node.topologyGen, lctx.now);
    if (dryRun) return { ...current, wouldTerminate: terminate, wouldSkip: skipped };

    // Step 7; a reclaim that changes nothing writes nothing.
    const named = new Set(input.unitIds);
    const leaving = units.filter((u) => u.released && named.has(u.unitId)).map((u) => u.unitId);
    if (leaving.length === 0 && terminate.length === 0) return { ...current, terminated: [], skipped };

    // A multi-unit VM ends whole and frees all its units (step 7).
    const { unitsOf: evictedUnits } = await endVms(tx, lctx, terminate, 'reclaimed');
    if (leaving.length > 0) {
      await tx
        .update(reservationUnits)
        .set({ released: false })
        .where(and(eq(reservationUnits.nodeId, node.id), eq(reservationUnits.reservationId, reservation.id), inArray(reservationUnits.unitId, leaving)));
    }
    const updated = await saveReservation(tx, { ctx: lctx, reservation }, input.reason);

    const unitIds = sortUnitIds(input.unitIds, positions);
    await writeAuditEvent(tx, lctx, {
      action: 'reservation.reclaim',
      nodeId: node.id,
      reservationId: reservation.id,
      unitIds,
      reason: input.reason || undefined,
      details: { terminated: terminate, skipped },
    });
    if (toTerminate.length > 0) {
      await tx.insert(notifications).values(
        toTerminate.map((vm) => {
          const vmUnitIds = sortUnitIds(evictedUnits.get(vm.id) ?? [], positions);
          return {
            id: newId('ntf'),
            orgId: vm.orgId,
            at: lctx.now,
            kind: 'vm.reclaimed' as const,
            message: `Your spot VM ${vm.id} on node ${node.id} (${vmUnitIds.join(', ')}) was terminated: the capacity holder reclaimed its units${input.reason ? ` (reason: ${input.reason})` : ''}.`,
            details: { vmId: vm.id, nodeId: node.id, unitIds: vmUnitIds, terminationReason: 'reclaimed' as const, terminatedAt: lctx.now.toISOString(), ...(input.reason ? { reason: input.reason } : {}) },
          };
        }),
      );
    }

    const after = units.map((u) => (named.has(u.unitId) ? { ...u, released: false } : u));
    return { ...toReservation(updated, after, positions, node.topologyGen, lctx.now), terminated: terminate, skipped };
  });
}
