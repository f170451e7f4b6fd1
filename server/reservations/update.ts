import { reservationUnits } from '@/db/schema';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { AuditDetailsOf } from '../audit/details';
import { writeAuditEvent } from '../audit/write';
import { closeIntervals, moveIntervalEnds } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { sortByCodePoint, sortUnitIds } from '../ids';
import { requireKnownOrgs } from '../orgs/internal';
import { dropScheduledUnits, lapseForReservation, openReservationSettled } from '../scheduled-reclaims/settle';
import { overlappingUnits, requireAction, runningOn, saveReservation } from './internal';
import type { UpdateReservationInput } from './schemas';
import { holdsNow, toReservation, type Reservation } from './view';
import { moveExpiry } from '../events/milestones';
import { recipientsOf } from '../events/write';

/**
 * Edits a reservation: audience, managing orgs, endsAt, contractRef, and shrinking
 * reservedUnitIds (a removed unit also leaves releasedUnitIds). Operator or node owner (§2).
 * A patch that changes nothing writes nothing.
 * @returns the Reservation after the change.
 * @throws DomainError not_found, forbidden, reservation_not_active (cancelled or expired),
 *   invalid_request (endsAt not after startsAt), unit_not_in_reservation (units it does not
 *   hold: a reservation never gains units), unknown_org, unit_occupied (a removed unit runs a
 *   VM of the audience), reservation_overlap (a later endsAt runs into another reservation).
 */
export async function updateReservation({ ctx, input }: { ctx: Ctx; input: UpdateReservationInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const s = await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
    const { node, reservation: r, positions } = s;
    requireAction(s, 'edit');
    if (input.endsAt && input.endsAt <= r.startsAt) {
      throw new DomainError('invalid_request', 'endsAt must be after the reservation’s startsAt.', {
        errors: [{ path: 'body.endsAt', message: 'must be after startsAt' }],
      });
    }
    // As on create: an end in the past would rewrite history; cancel ends a reservation now.
    if (input.endsAt && input.endsAt <= s.ctx.now) {
      throw new DomainError('invalid_request', 'endsAt must be in the future; to end a reservation now, cancel it.', {
        errors: [{ path: 'body.endsAt', message: 'must be in the future' }],
      });
    }
    const held = new Set(s.units.map((u) => u.unitId));
    if (input.reservedUnitIds) {
      const gained = input.reservedUnitIds.filter((u) => !held.has(u));
      if (gained.length) {
        const unitIds = sortUnitIds(gained, positions);
        throw new DomainError(
          'unit_not_in_reservation',
          `Units ${unitIds.join(', ')} are not in reservation "${r.id}"; a reservation can lose units but never gain them.`,
          { unitIds },
        );
      }
    }
    await requireKnownOrgs(tx, [...(input.allowedOrgIds ?? []), ...(input.managingOrgIds ?? [])]);

    const keep = new Set(input.reservedUnitIds ?? held);
    const removed = [...held].filter((u) => !keep.has(u));
    const audience = new Set(input.allowedOrgIds ?? r.allowedOrgIds);
    // Only a reservation that holds its units now has the audience's VMs on them; before its
    // period they run on other capacity and the shrink does not touch them (holdsNow).
    const busy = holdsNow(r, s.ctx.now)
      ? await runningOn(tx, s.ctx, node, removed, positions, { filter: (vm) => audience.has(vm.orgId) || r.allowedOrgIds.includes(vm.orgId) })
      : null;
    if (busy)
      throw new DomainError(
        'unit_occupied',
        `Units ${busy.unitIds.join(', ')} run VMs of the reservation’s audience; they must end before the units leave the reservation.`,
        busy,
      );

    const endsAt = input.endsAt === undefined ? r.endsAt : input.endsAt;
    const extends_ = r.endsAt !== null && (endsAt === null || endsAt > r.endsAt);
    if (extends_) {
      const overlap = await overlappingUnits(tx, node.id, [...keep], r.startsAt, endsAt, r.id);
      if (overlap.length) {
        const unitIds = sortUnitIds(overlap, positions);
        throw new DomainError('reservation_overlap', `Units ${unitIds.join(', ')} are reserved by another reservation in the extended period.`, { unitIds });
      }
    }

    const changes: AuditDetailsOf<'reservation.update'> = {};
    const allowed = input.allowedOrgIds ? sortByCodePoint(input.allowedOrgIds) : r.allowedOrgIds;
    const managing = input.managingOrgIds ? sortByCodePoint(input.managingOrgIds) : r.managingOrgIds;
    const contractRef = input.contractRef === undefined ? r.contractRef : input.contractRef;
    if (JSON.stringify(allowed) !== JSON.stringify(r.allowedOrgIds)) changes.allowedOrgIds = allowed;
    if (JSON.stringify(managing) !== JSON.stringify(r.managingOrgIds)) changes.managingOrgIds = managing;
    if ((endsAt?.getTime() ?? null) !== (r.endsAt?.getTime() ?? null)) changes.endsAt = endsAt ? endsAt.toISOString() : null;
    if (contractRef !== r.contractRef) changes.contractRef = contractRef;
    if (removed.length) changes.removedUnitIds = sortUnitIds(removed, positions);
    if (Object.keys(changes).length === 0) return toReservation(r, s.units, positions, node.topologyGen, s.ctx.now);

    const updated = await saveReservation(tx, s, input.reason, { allowedOrgIds: allowed, managingOrgIds: managing, endsAt, contractRef });
    if (removed.length)
      await tx
        .delete(reservationUnits)
        .where(and(eq(reservationUnits.nodeId, node.id), eq(reservationUnits.reservationId, r.id), inArray(reservationUnits.unitId, removed)));
    if ('endsAt' in changes)
      await tx
        .update(reservationUnits)
        .set({ endsAt })
        .where(
          and(
            eq(reservationUnits.nodeId, node.id),
            eq(reservationUnits.reservationId, r.id),
            notInArray(reservationUnits.unitId, removed.length ? removed : ['']),
          ),
        );
    // The units that left end their intervals now; the others' planned end follows endsAt (§5.8).
    await closeIntervals(tx, { nodeId: node.id, reservationId: r.id, unitIds: removed }, s.ctx.now, 'shrink');
    if ('endsAt' in changes) {
      await moveIntervalEnds(tx, node.id, r.id, endsAt);
      await moveExpiry(tx, node.id, r.id, endsAt);
    }
    await writeAuditEvent(tx, s.ctx, {
      action: 'reservation.update',
      nodeId: node.id,
      reservationId: r.id,
      // Addressed to those who stand to it after the change (docs/product.md §5.7).
      to: recipientsOf(node, updated),
      unitIds: sortUnitIds(held, positions),
      // The event says what the reservation holds after the change (the audit event, what it named before).
      eventData: { unitIds: sortUnitIds([...keep], positions) },
      reason: input.reason || undefined,
      details: changes,
    });
    // Units that left leave its pending schedules; an earlier end lapses those at or after it (§5.6).
    await dropScheduledUnits(tx, s, removed, r.id);
    if ('endsAt' in changes) await lapseForReservation(tx, s.ctx, node, r.id, 'reservation_ended', endsAt);
    return toReservation(
      updated,
      s.units.filter((u) => keep.has(u.unitId)),
      positions,
      node.topologyGen,
      s.ctx.now,
    );
  });
}
