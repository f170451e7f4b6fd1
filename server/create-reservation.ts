import { z } from 'zod';
import { reservationUnits, reservations } from '@/db/schema';
import { findNode, requireReservationOwner, relationTo, unknownOrgIds } from './access';
import { writeAuditEvent } from './audit';
import { atLockTime, inTransaction, type Ctx } from './context';
import { DomainError } from './errors';
import { Id, distinctIds, freeText, newId, sortByCodePoint, sortUnitIds } from './ids';
import { loadUnitPositions, toReservation, type Reservation } from './reservation-view';
import { Timestamp, overlappingUnits, runningOn } from './reservation-context';

const OrgIds = (what: string, min: number) =>
  z
    .array(Id)
    .min(min, `must name at least ${min} org`)
    .max(256, 'must name at most 256 orgs')
    .refine((ids) => new Set(ids).size === ids.length, `${what} must not repeat an org`);

/** Body of `POST /v1/nodes/{nodeId}/reservations` (SPEC §5). */
const CreateReservationFields = z
  .object({
    id: Id.optional(),
    reservedUnitIds: distinctIds(1024),
    allowedOrgIds: OrgIds('allowedOrgIds', 1),
    managingOrgIds: OrgIds('managingOrgIds', 0).optional(),
    contractRef: freeText(200).optional(),
    startsAt: Timestamp.optional(),
    endsAt: Timestamp.optional(),
    reason: freeText(1000).optional(),
  })
  .strict();
function periodRule(b: { startsAt?: Date; endsAt?: Date }, ctx: z.RefinementCtx) {
  if (b.startsAt && b.endsAt && b.endsAt <= b.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
}
export const CreateReservationBody = CreateReservationFields.superRefine(periodRule);
export const CreateReservationInput = CreateReservationFields.extend({ nodeId: Id }).superRefine(periodRule);
export type CreateReservationInput = z.infer<typeof CreateReservationInput>;

/**
 * Reserves some of a node's units for an audience (SPEC §5 create; §2: operator or node
 * owner). `startsAt` defaults to now; the reservation is written against the node's current
 * topologyGen.
 * @returns the Reservation (status pending or active).
 * @throws DomainError not_found (node), forbidden, invalid_request (endsAt not after
 *   startsAt, or already past), unknown_unit, unknown_org, already_exists (id taken),
 *   unit_occupied (the period covers now and a unit runs a VM), reservation_overlap.
 */
export async function createReservation({ ctx, input }: { ctx: Ctx; input: CreateReservationInput }): Promise<Reservation> {
  return inTransaction(ctx, async (tx) => {
    const node = await findNode(tx, input.nodeId, 'write');
    const lctx = atLockTime({ ...ctx, db: tx }, node.lockedAt);
    requireReservationOwner(relationTo(ctx, node, { allowedOrgIds: [], managingOrgIds: [] }), 'create reservations on this node');
    const startsAt = input.startsAt ?? lctx.now;
    const endsAt = input.endsAt ?? null;
    if (endsAt && endsAt <= startsAt) throw invalidPeriod('body.endsAt', 'must be after startsAt');
    if (endsAt && endsAt <= lctx.now) throw invalidPeriod('body.endsAt', 'must be in the future');

    const positions = await loadUnitPositions(tx, node.id);
    const unknownUnits = input.reservedUnitIds.filter((u) => !positions.has(u));
    if (unknownUnits.length) {
      const ids = sortByCodePoint(unknownUnits);
      throw new DomainError('unknown_unit', `Node "${node.id}" has no units ${ids.join(', ')}.`, { unitIds: ids });
    }
    const orgIds = [...input.allowedOrgIds, ...(input.managingOrgIds ?? [])];
    const unknownOrgs = await unknownOrgIds(tx, orgIds);
    if (unknownOrgs.length) throw new DomainError('unknown_org', `No orgs ${unknownOrgs.join(', ')} exist.`, { orgIds: unknownOrgs });

    const id = input.id ?? newId('res');
    const coversNow = startsAt <= lctx.now && (!endsAt || endsAt > lctx.now);
    const busy = coversNow ? await runningOn(tx, lctx, node, input.reservedUnitIds, positions) : null;
    if (busy) throw new DomainError('unit_occupied', `Units ${busy.unitIds.join(', ')} run VMs now; reserve them from a later time or once they are free.`, busy);
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
    await tx.insert(reservationUnits).values(input.reservedUnitIds.map((unitId) => ({ reservationId: id, nodeId: node.id, unitId, startsAt, endsAt, cancelled: false, released: false })));
    const unitIds = sortUnitIds(input.reservedUnitIds, positions);
    await writeAuditEvent(tx, lctx, {
      action: 'reservation.create',
      nodeId: node.id,
      reservationId: id,
      unitIds,
      reason: input.reason || undefined,
      details: { allowedOrgIds: row.allowedOrgIds, managingOrgIds: row.managingOrgIds, startsAt: startsAt.toISOString(), ...(endsAt ? { endsAt: endsAt.toISOString() } : {}) },
    });
    return toReservation(row, unitIds.map((unitId) => ({ unitId, released: false })), positions, node.topologyGen, lctx.now);
  });
}

function invalidPeriod(path: string, message: string): DomainError {
  return new DomainError('invalid_request', `The reservation period is invalid: ${path.replace('body.', '')} ${message}.`, { errors: [{ path, message }] });
}
