import type { DbOrTx, Tx } from '@/db/client';
import { preparedStatement } from '@/db/prepared';
import { reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { type Ctx, type Principal } from '../context';
import { notFound } from '../errors';
import { sortByCodePoint, sortUnitIds } from '../ids';
import { lockNode, type LockedNode, type LockMode, type NodeRow } from '../nodes/internal';
import { compositeKey } from '../pagination';
import { assertReservationAction, maySeeReservation, maySeeRunningVm, relationTo, type ReservationRelation, type ReservationRuleName } from '../policy';
import type { ReservationStatus } from './status';
import { reservationStatus, type ReservationRow, type ReservationUnitState } from './view';

function reservationStatement(lock: LockMode) {
  return preparedStatement((db) => {
    // The reservation's unit rows come with it, aggregated: one round trip, not two. Written
    // with explicit qualifiers: drizzle prints a one-table select's field columns unqualified,
    // which inside this subquery would name reservation_units' own node_id (issue 10 review).
    const units = sql<
      ReservationUnitState[]
    >`coalesce((select json_agg(json_build_object('unitId', ru.unit_id, 'released', ru.released)) from ${reservationUnits} ru where ru.node_id = "reservations"."node_id" and ru.reservation_id = "reservations"."id"), '[]'::json)`;
    const q = db
      .select({ reservation: reservations, units })
      .from(reservations)
      .where(and(eq(reservations.id, sql.placeholder('reservationId')), eq(reservations.nodeId, sql.placeholder('nodeId'))));
    return (lock === 'write' ? q.for('no key update') : q).prepare(`find_reservation_${lock}`);
  });
}
const reservationBy = { write: reservationStatement('write'), none: reservationStatement('none') };

/**
 * Finds a reservation under `node` that the principal may see, optionally locking it, with its
 * unit rows. A reservation addressed under the wrong node, or invisible to the caller, is 404
 * (docs/product.md §2).
 * @throws DomainError not_found
 */
export async function findVisibleReservation(
  db: DbOrTx,
  principal: Principal,
  node: NodeRow,
  reservationId: string,
  lock: LockMode,
): Promise<{ reservation: ReservationRow; relation: ReservationRelation; units: ReservationUnitState[] }> {
  const row = await findReservationOnNode(db, node.id, reservationId, lock);
  const relation = row && relationTo(principal, node, row.reservation);
  if (!row || !relation || !maySeeReservation(relation)) throw notFound(`Reservation "${reservationId}" on node "${node.id}"`);
  return { reservation: row.reservation, relation, units: row.units };
}

/**
 * The reservation `reservationId` of node `nodeId` with its unit rows, whoever may see it
 * (callers judge visibility; a scheduled reclaim's run judges its scheduler's), optionally locked.
 * @returns null when the node has no such reservation.
 */
export async function findReservationOnNode(
  db: DbOrTx,
  nodeId: string,
  reservationId: string,
  lock: LockMode,
): Promise<{ reservation: ReservationRow; units: ReservationUnitState[] } | null> {
  const [row] = await reservationBy[lock](db, { reservationId, nodeId });
  return row ?? null;
}

/** Unit rows of the given reservations on one node (ids are unique per node), grouped by reservation id. */
export async function loadReservationUnits(db: DbOrTx, nodeId: string, reservationIds: string[]): Promise<Map<string, ReservationUnitState[]>> {
  const byReservation = new Map<string, ReservationUnitState[]>(reservationIds.map((id) => [id, []]));
  if (reservationIds.length === 0) return byReservation;
  const rows = await db
    .select({ reservationId: reservationUnits.reservationId, unitId: reservationUnits.unitId, released: reservationUnits.released })
    .from(reservationUnits)
    .where(
      and(
        eq(reservationUnits.nodeId, nodeId),
        reservationIds.length === 1 ? eq(reservationUnits.reservationId, reservationIds[0]!) : inArray(reservationUnits.reservationId, reservationIds),
      ),
    );
  for (const row of rows) byReservation.get(row.reservationId)?.push({ unitId: row.unitId, released: row.released });
  return byReservation;
}

/**
 * Unit rows of reservations on several nodes, in one statement, keyed by
 * `compositeKey(nodeId, id)` (reservation ids are unique per node only).
 */
export async function loadReservationUnitsAcross(db: DbOrTx, keys: readonly { nodeId: string; id: string }[]): Promise<Map<string, ReservationUnitState[]>> {
  const byKey = new Map<string, ReservationUnitState[]>(keys.map((k) => [compositeKey(k.nodeId, k.id), []]));
  if (keys.length === 0) return byKey;
  const pairs = sql.join(
    keys.map((k) => sql`(${k.nodeId}, ${k.id})`),
    sql`, `,
  );
  const rows = await db
    .select({
      nodeId: reservationUnits.nodeId,
      reservationId: reservationUnits.reservationId,
      unitId: reservationUnits.unitId,
      released: reservationUnits.released,
    })
    .from(reservationUnits)
    .where(sql`(${reservationUnits.nodeId}, ${reservationUnits.reservationId}) in (${pairs})`);
  for (const row of rows) byKey.get(compositeKey(row.nodeId, row.reservationId))?.push({ unitId: row.unitId, released: row.released });
  return byKey;
}

/** Everything a reservation verb works from, read under the locks of the fixed lock order (docs/architecture.md). */
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
 * Locks the node then the reservation (write) or reads them as they are (none: a read-only
 * snapshot needs no lock), checks visibility
 * (404) and loads the reservation's units and status.
 * @throws DomainError not_found
 */
export async function openReservation(tx: Tx, ctx: Ctx, nodeId: string, reservationId: string, lock: LockMode): Promise<ReservationScope> {
  const locked = await lockNode(tx, ctx, nodeId, lock);
  return openOnLockedNode(tx, locked, reservationId, lock);
}

/**
 * `openReservation` once the node is locked (`lockNode`'s answer): the reservation under it,
 * checked visible (404) to the principal of `locked.ctx`.
 * @throws DomainError not_found
 */
export async function openOnLockedNode(
  tx: Tx,
  locked: { node: LockedNode; ctx: Ctx },
  reservationId: string,
  lock: LockMode,
): Promise<ReservationScope & { node: LockedNode }> {
  const { node, ctx: lctx } = locked;
  const { reservation, relation, units } = await findVisibleReservation(tx, lctx, node, reservationId, lock);
  return { ctx: lctx, node, reservation, relation, status: reservationStatus(reservation, node.topologyGen, lctx.now), units, positions: node.positions };
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
    .where(and(eq(vmUnits.nodeId, node.id), sql`${vmUnits.running}`, inArray(vmUnits.unitId, [...unitIds])));
  return occupiedUnits(ctx, node, filter ? rows.filter(filter) : rows, positions, opts.managing === true);
}

/**
 * The `unit_occupied` extras for running VMs found on named units: the units in node order,
 * and the VM ids the caller may see — the operator, the node owner, a managing org of the
 * reservation the units belong to (`managing`), and the VM's own org (docs/product.md §5 Errors, §2).
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
  const sees = (orgId: string) => maySeeRunningVm(principal, node, { orgId }, managing);
  return {
    unitIds: sortUnitIds(new Set(hits.map((h) => h.unitId)), positions),
    vmIds: sortByCodePoint(new Set(hits.filter((h) => sees(h.orgId)).map((h) => h.vmId))),
  };
}

/**
 * Asserts one action of the policy (server/policy.ts) on the opened reservation: who may (403),
 * then whether its status allows it (409).
 * @throws DomainError forbidden, or the action's 409.
 */
export function requireAction(s: Pick<ReservationScope, 'reservation' | 'relation' | 'status'>, action: ReservationRuleName): void {
  assertReservationAction(action, s.relation, { id: s.reservation.id, status: s.status });
}

/**
 * Writes a change to a reservation's row: `updatedAt` = now, the change's reason when it gave
 * one (docs/product.md §5: a Reservation's `reason` is the latest change's that gave one), plus `set`.
 * @returns the row after the change.
 */
export async function saveReservation(
  tx: Tx,
  scope: Pick<ReservationScope, 'ctx' | 'reservation'>,
  reason: string | undefined,
  set: Partial<typeof reservations.$inferInsert> = {},
): Promise<ReservationRow> {
  const [row] = await tx
    .update(reservations)
    .set({ ...set, updatedAt: scope.ctx.now, ...(reason ? { reason } : {}) })
    .where(and(eq(reservations.nodeId, scope.reservation.nodeId), eq(reservations.id, scope.reservation.id)))
    .returning();
  return row!;
}
