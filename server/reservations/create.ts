import { reservationUnits, reservations } from '@/db/schema';
import { writeAuditEvent } from '../audit/write';
import { openReservationIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { newId, sortByCodePoint, sortUnitIds } from '../ids';
import { requireKnownUnits } from '../nodes/internal';
import { lockNodeSettled } from '../scheduled-reclaims/settle';
import { requireKnownOrgs } from '../orgs/internal';
import { assertNodeAction, nodeRelation } from '../policy';
import { overlappingUnits, runningOn } from './internal';
import type { CreateReservationInput } from './schemas';
import { toReservation, type Reservation } from './view';
import { planMilestones } from '../events/milestones';
import { recipientsOf } from '../events/write';

/**
 * How far before the request's clock a new reservation may start (docs/product.md §5 create,
 * §9.1 o): a little, for a client's clock skew and the request's time in flight; no more, since a
 * backdated reservation would claim time already used by others (and, through it, a managing
 * org would see VMs that ran then — visibility starts at `createdAt` as well, server/policy.ts).
 */
export const MAX_BACKDATE_MS = 5 * 60_000;

/**
 * Reserves some of a node's units for an audience (docs/product.md §5 create; §2: operator or node
 * owner). `startsAt` defaults to now and may be at most 5 minutes before the request's clock
 * (read under the node lock); the reservation is written against the node's current topologyGen.
 * @param input reservedUnitIds, allowedOrgIds (≥ 1), managingOrgIds?, contractRef?, startsAt?,
 *   endsAt? (after startsAt, in the future), reason?, id? (chosen by the server when absent).
 * @returns the Reservation (status pending or active).
 * @throws DomainError not_found (node), forbidden, invalid_request (endsAt not after
 *   startsAt, or already past), start_in_past (422 naming body.startsAt: more than 5 minutes
 *   ago), unknown_unit, unknown_org, already_exists (id taken), unit_occupied (the period
 *   covers now and a unit runs a VM), reservation_overlap.
 */
export async function createReservation({ ctx, input }: { ctx: Ctx; input: CreateReservationInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const { node, ctx: lctx } = await lockNodeSettled(tx, ctx, input.nodeId);
    assertNodeAction('createReservation', nodeRelation(ctx, node));
    const startsAt = input.startsAt ?? lctx.now;
    const endsAt = input.endsAt ?? null;
    if (endsAt && endsAt <= startsAt) throw invalidPeriod('body.endsAt', 'must be after startsAt');
    if (endsAt && endsAt <= lctx.now) throw invalidPeriod('body.endsAt', 'must be in the future');
    if (startsAt.getTime() < lctx.now.getTime() - MAX_BACKDATE_MS) {
      throw new DomainError(
        'start_in_past',
        `A reservation may start at most ${MAX_BACKDATE_MS / 60_000} minutes in the past (it would otherwise claim time that has already been used); give a later startsAt, or none to start now.`,
        {
          errors: [{ path: 'body.startsAt', message: `must be at most ${MAX_BACKDATE_MS / 60_000} minutes in the past` }],
        },
      );
    }

    const positions = node.positions;
    requireKnownUnits(node, positions, input.reservedUnitIds);
    const orgIds = [...input.allowedOrgIds, ...(input.managingOrgIds ?? [])];
    await requireKnownOrgs(tx, orgIds);

    const id = input.id ?? newId('res');
    const coversNow = startsAt <= lctx.now && (!endsAt || endsAt > lctx.now);
    const busy = coversNow ? await runningOn(tx, lctx, node, input.reservedUnitIds, positions) : null;
    if (busy)
      throw new DomainError('unit_occupied', `Units ${busy.unitIds.join(', ')} run VMs now; reserve them from a later time or once they are free.`, busy);
    const overlap = await overlappingUnits(tx, node.id, input.reservedUnitIds, startsAt, endsAt);
    if (overlap.length) {
      const unitIds = sortUnitIds(overlap, positions);
      throw new DomainError('reservation_overlap', `Units ${unitIds.join(', ')} are already reserved in an overlapping period.`, { unitIds });
    }

    const inserted = await tx
      .insert(reservations)
      .values({
        id,
        nodeId: node.id,
        allowedOrgIds: sortByCodePoint(input.allowedOrgIds),
        managingOrgIds: sortByCodePoint(input.managingOrgIds ?? []),
        contractRef: input.contractRef ?? null,
        startsAt,
        endsAt,
        reason: input.reason || null,
        topologyGen: node.topologyGen,
        cancelledAt: null,
        createdAt: lctx.now,
        updatedAt: lctx.now,
      })
      .onConflictDoNothing()
      .returning();
    const row = inserted[0];
    if (!row) throw new DomainError('already_exists', `A reservation "${id}" already exists on node "${node.id}"; choose another id or omit it.`);
    await tx
      .insert(reservationUnits)
      .values(input.reservedUnitIds.map((unitId) => ({ reservationId: id, nodeId: node.id, unitId, startsAt, endsAt, cancelled: false, released: false })));
    await openReservationIntervals(tx, { nodeId: node.id, reservationId: id, kind: 'reserved', unitIds: input.reservedUnitIds, startsAt, endsAt });
    // Its start and end, for the job runner to tell of once the clock passes them (§5.7).
    await planMilestones(tx, { nodeId: node.id, id, startsAt, endsAt });
    const unitIds = sortUnitIds(input.reservedUnitIds, positions);
    await writeAuditEvent(tx, lctx, {
      action: 'reservation.create',
      nodeId: node.id,
      reservationId: id,
      to: recipientsOf(node, row),
      unitIds,
      reason: input.reason || undefined,
      details: {
        allowedOrgIds: row.allowedOrgIds,
        managingOrgIds: row.managingOrgIds,
        startsAt: startsAt.toISOString(),
        ...(endsAt ? { endsAt: endsAt.toISOString() } : {}),
      },
    });
    return toReservation(
      row,
      unitIds.map((unitId) => ({ unitId, released: false })),
      positions,
      node.topologyGen,
      lctx.now,
    );
  });
}

export function invalidPeriod(path: string, message: string): DomainError {
  return new DomainError('invalid_request', `The reservation period is invalid: ${path.replace('body.', '')} ${message}.`, { errors: [{ path, message }] });
}
