import { and, eq, gt, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '@/db/client';
import { reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { findNode, findVisibleReservation, type LockMode, type NodeRow, type ReservationRelation } from './access';
import { atLockTime, isOperator, type Ctx, type Principal } from './context';
import { DomainError } from './errors';
import { sortByCodePoint, sortUnitIds } from './ids';
import { loadReservationUnits, loadUnitPositions, reservationStatus, type ReservationRow, type ReservationStatus, type ReservationUnitState } from './reservation-view';

/**
 * An ISO 8601 UTC timestamp (`Z`, four-digit year) from 1970 on, as a Date. Earlier years are no
 * reservation's business, and the driver reads years below 100 back with JavaScript's
 * two-digit-year rule (0049 → 2049), so they never reach PostgreSQL.
 */
export const Timestamp = z
  .iso.datetime({ message: 'must be an ISO 8601 UTC timestamp such as 2026-12-01T00:00:00.000Z' })
  .refine((s) => s >= '1970', 'must be in 1970 or later')
  .transform((s) => new Date(s));

/** Everything a reservation verb works from, read under the locks of SPEC's fixed order. */
export type ReservationScope = {
  /** The context with the clock read once the node lock is held (Ctx.clock). */
  ctx: Ctx;
  node: NodeRow;
  reservation: ReservationRow;
  relation: ReservationRelation;
  status: ReservationStatus;
  units: ReservationUnitState[];
  positions: Map<string, number>;
};

/**
 * Locks the node then the reservation (write) or share-locks them (read), checks visibility
 * (404) and loads the reservation's units and status.
 * @throws DomainError not_found
 */
export async function openReservation(tx: Tx, ctx: Ctx, nodeId: string, reservationId: string, lock: LockMode): Promise<ReservationScope> {
  const node = await findNode(tx, nodeId, lock);
  const lctx = atLockTime({ ...ctx, db: tx }, node.lockedAt);
  const { reservation, relation } = await findVisibleReservation(tx, ctx, node, reservationId, lock);
  const [byId, positions] = await Promise.all([loadReservationUnits(tx, node.id, [reservation.id]), loadUnitPositions(tx, node.id)]);
  return { ctx: lctx, node, reservation, relation, status: reservationStatus(reservation, node.topologyGen, lctx.now), units: byId.get(reservation.id) ?? [], positions };
}

/**
 * Units among `unitIds` that another non-cancelled reservation holds in an overlapping
 * period. The exclusion constraint holds the same rule; this names the units for the 409.
 */
export async function overlappingUnits(
  tx: Tx,
  nodeId: string,
  unitIds: readonly string[],
  startsAt: Date,
  endsAt: Date | null,
  excludeReservationId?: string,
): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows = await tx
    .select({ unitId: reservationUnits.unitId })
    .from(reservationUnits)
    .where(
      and(
        eq(reservationUnits.nodeId, nodeId),
        inArray(reservationUnits.unitId, [...unitIds]),
        eq(reservationUnits.cancelled, false),
        excludeReservationId ? ne(reservationUnits.reservationId, excludeReservationId) : undefined,
        or(isNull(reservationUnits.endsAt), gt(reservationUnits.endsAt, startsAt)),
        endsAt ? lt(reservationUnits.startsAt, endsAt) : undefined,
      ),
    );
  return [...new Set(rows.map((r) => r.unitId))];
}

/**
 * Running VMs on any of `unitIds`, as `unit_occupied` extras (see `occupiedUnits`).
 * @returns null when none runs there.
 */
export async function runningOn(
  tx: Tx,
  ctx: Ctx,
  node: NodeRow,
  unitIds: readonly string[],
  positions: ReadonlyMap<string, number>,
  opts: { filter?: (vm: { orgId: string }) => boolean; managing?: boolean } = {},
) {
  const { filter } = opts;
  if (unitIds.length === 0) return null;
  const rows = await tx
    .select({ unitId: vmUnits.unitId, vmId: vmUnits.vmId, orgId: vms.orgId })
    .from(vmUnits)
    .innerJoin(vms, eq(vms.id, vmUnits.vmId))
    .where(and(eq(vmUnits.nodeId, node.id), eq(vmUnits.running, true), inArray(vmUnits.unitId, [...unitIds])));
  return occupiedUnits(ctx, node, filter ? rows.filter(filter) : rows, positions, opts.managing === true);
}

/**
 * The `unit_occupied` extras for running VMs found on named units: the units in node order,
 * and the VM ids the caller may see — the operator, the node owner, a managing org of the
 * reservation the units belong to (`managing`), and the VM's own org (SPEC §5 Errors, §2).
 * @returns null when no VM runs there.
 */
export function occupiedUnits(
  principal: Principal,
  node: NodeRow,
  hits: readonly { unitId: string; vmId: string; orgId: string }[],
  positions: ReadonlyMap<string, number>,
  managing: boolean,
): { unitIds: string[]; vmIds: string[] } | null {
  if (hits.length === 0) return null;
  const seesAll = isOperator(principal) || node.ownerOrgId === principal.orgId || managing;
  return {
    unitIds: sortUnitIds(new Set(hits.map((h) => h.unitId)), positions),
    vmIds: sortByCodePoint(new Set(hits.filter((h) => seesAll || h.orgId === principal.orgId).map((h) => h.vmId))),
  };
}

/**
 * Editing, cancelling and re-affirming need a reservation that has not ended.
 * @param what completes "Reservation X is cancelled; …", e.g. "it can no longer be edited".
 * @throws DomainError reservation_not_active (cancelled or expired), with its status.
 */
export function requireNotEnded(s: Pick<ReservationScope, 'reservation' | 'status'>, what: string): void {
  if (s.status === 'cancelled' || s.status === 'expired') {
    throw new DomainError('reservation_not_active', `Reservation "${s.reservation.id}" is ${s.status}; ${what}.`, { reservationStatus: s.status });
  }
}

/**
 * Writes a change to a reservation's row: `updatedAt` = now, the change's reason when it gave
 * one (SPEC §5: a Reservation's `reason` is the latest change's that gave one), plus `set`.
 * @returns the row after the change.
 */
export async function saveReservation(tx: Tx, scope: Pick<ReservationScope, 'ctx' | 'reservation'>, reason: string | undefined, set: Partial<typeof reservations.$inferInsert> = {}): Promise<ReservationRow> {
  const [row] = await tx
    .update(reservations)
    .set({ ...set, updatedAt: scope.ctx.now, ...(reason ? { reason } : {}) })
    .where(and(eq(reservations.nodeId, scope.reservation.nodeId), eq(reservations.id, scope.reservation.id)))
    .returning();
  return row!;
}
