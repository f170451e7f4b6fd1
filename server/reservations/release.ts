import type { Tx } from '@/db/client';
import { inReadOnlySnapshot } from '@/db/prepared';
import { reservationUnits } from '@/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { openReservationIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { sortUnitIds } from '../ids';
import { openReservationSettled } from '../scheduled-reclaims/settle';
import { openReservation, requireAction, runningOn, saveReservation } from './internal';
import type { ReleaseInput } from './schemas';
import { toReservation, type Reservation } from './view';
import { recipientsOf } from '../events/write';

/**
 * Puts reserved units of an active reservation on the spot market (docs/product.md §5.2). Same
 * principals as reclaim. Idempotent for units already released; a release that changes
 * nothing writes nothing. A dry run returns the reservation as it would look after it.
 * @returns the Reservation after (or, dry run, as it would be after) the release.
 * @throws DomainError not_found, forbidden (the audience), reservation_needs_review,
 *   reservation_not_active, unit_not_in_reservation, unit_occupied (a named unit runs a VM).
 */
export async function release({ ctx, input }: { ctx: Ctx; input: ReleaseInput }): Promise<Reservation> {
  const dryRun = input.dryRun ?? false;
  // A dry run reads one read-only snapshot, lock-free (reclaim's is a single SELECT: server/reservations/reclaim.ts).
  const run = dryRun
    ? (fn: (tx: Tx) => Promise<Reservation>) => inReadOnlySnapshot(ctx.db, fn)
    : (fn: (tx: Tx) => Promise<Reservation>) => inTransaction(ctx, fn);
  return run(async (tx) => {
    // A real release runs the node's due scheduled reclaims first (§5.6); a dry run reads as it is.
    const s = dryRun
      ? await openReservation(tx, ctx, input.nodeId, input.reservationId, 'none')
      : await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
    const { node, reservation: r, positions } = s;
    requireAction(s, 'release');
    const held = new Map(s.units.map((u) => [u.unitId, u]));
    const strays = input.unitIds.filter((u) => !held.has(u));
    if (strays.length) {
      const unitIds = sortUnitIds(strays, positions);
      throw new DomainError('unit_not_in_reservation', `Units ${unitIds.join(', ')} are not in reservation "${r.id}".`, { unitIds });
    }
    const entering = input.unitIds.filter((u) => !held.get(u)!.released);
    const busy = await runningOn(tx, s.ctx, node, entering, positions, { managing: s.relation.managing });
    if (busy) throw new DomainError('unit_occupied', `Units ${busy.unitIds.join(', ')} run VMs; only idle units can be released.`, busy);

    const named = new Set(input.unitIds);
    const after = s.units.map((u) => (named.has(u.unitId) ? { ...u, released: true } : u));
    if (dryRun) return toReservation(r, after, positions, node.topologyGen, s.ctx.now);
    if (entering.length === 0) return toReservation(r, s.units, positions, node.topologyGen, s.ctx.now);

    await tx
      .update(reservationUnits)
      .set({ released: true })
      .where(and(eq(reservationUnits.nodeId, node.id), eq(reservationUnits.reservationId, r.id), inArray(reservationUnits.unitId, entering)));
    await openReservationIntervals(tx, { nodeId: node.id, reservationId: r.id, kind: 'released', unitIds: entering, startsAt: s.ctx.now, endsAt: r.endsAt });
    const updated = await saveReservation(tx, s, input.reason);
    await writeAuditEvent(tx, s.ctx, {
      action: 'reservation.release',
      nodeId: node.id,
      reservationId: r.id,
      to: recipientsOf(node, r),
      unitIds: sortUnitIds(input.unitIds, positions),
      reason: input.reason || undefined,
      details: { released: sortUnitIds(entering, positions) },
    });
    return toReservation(updated, after, positions, node.topologyGen, s.ctx.now);
  });
}
