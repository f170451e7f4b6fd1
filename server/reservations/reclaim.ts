import type { Tx } from '@/db/client';
import { preparedStatement } from '@/db/prepared';
import { nodeUnits, nodes, reservationUnits, reservations, vms, vmUnits } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { atLockTime, inTransaction, type Ctx } from '../context';
import { notFound } from '../errors';
import { maySeeReservation, relationTo } from '../policy';
import { dropScheduledUnits, lockNodeSettled } from '../scheduled-reclaims/settle';
import { applyReclaim, checkReclaim, planEviction, type AffectedVm } from './reclaim-apply';
import type { ReclaimInput } from './schemas';
import { holdsNow, reservationStatus, type ReclaimResult, type ReservationUnitState } from './view';

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
 * Locks: node, reservation, then the affected VMs by id (docs/architecture.md). A dry run takes
 * none: it is one SELECT (`previewRead`), whose snapshot is the statement's own, so it never
 * waits on a writer, opens no transaction, gets no transaction id and writes no WAL. A reclaim
 * that changes nothing writes nothing, not even `updatedAt` (docs/product.md §5.1 "idempotent").
 * A reservation that does not hold its units now (before or after its period, whatever its
 * status — pending or needs-review) terminates and skips nothing: the VMs on them run on
 * another holder's capacity (a narrowing of docs/product.md §5.1 step 4, see `holdsNow`).
 */
export async function reclaim({ ctx, input }: { ctx: Ctx; input: ReclaimInput }): Promise<ReclaimResult> {
  if (input.dryRun) return previewReclaim(ctx, input);
  return inTransaction(ctx, (tx) => reclaimOn(tx, ctx, input));
}

/**
 * Everything a dry run reads, in one statement on one snapshot (the statement's own: no
 * transaction around it, so no BEGIN or COMMIT round trip): the node with the clock and its
 * unit order, the reservation with its units (null when the node has none of that id), and the
 * running VMs on the named units. The VMs are read whatever the reservation's period: whether
 * it holds its units now is decided in JS (`holdsNow`), at the time read here.
 */
const previewRead = preparedStatement((db) => {
  const lockedAt = sql<Date>`clock_timestamp()`.mapWith((v: string | Date) => new Date(v));
  const unitOrder = sql<string[]>`array(select nu.unit_id from ${nodeUnits} nu where nu.node_id = ${nodes.id} order by nu.position)`;
  const units = sql<
    ReservationUnitState[] | null
  >`(select json_agg(json_build_object('unitId', ru.unit_id, 'released', ru.released)) from ${reservationUnits} ru where ru.node_id = ${reservations.nodeId} and ru.reservation_id = ${reservations.id})`;
  // `running` is a literal for the partial index `vm_units … WHERE running` (see affectedVmsStatement).
  const onUnits = sql<{ id: string; tier: string }[] | null>`(select json_agg(json_build_object('id', v.id, 'tier', v.tier)) from ${vms} v
    where v.status = 'running' and v.id in (select vu.vm_id from ${vmUnits} vu where vu.node_id = ${nodes.id} and vu.running and vu.unit_id = any(${sql.placeholder('unitIds')}::text[])))`;
  return db
    .select({ node: nodes, lockedAt, unitOrder, reservation: reservations, units, onUnits })
    .from(nodes)
    .leftJoin(reservations, and(eq(reservations.nodeId, nodes.id), eq(reservations.id, sql.placeholder('reservationId'))))
    .where(eq(nodes.id, sql.placeholder('nodeId')))
    .prepare('reclaim_preview');
});

/** A dry run (`input.dryRun`): steps 1–6 of docs/product.md §5.1 on one read, nothing written. */
async function previewReclaim(ctx: Ctx, input: ReclaimInput): Promise<ReclaimResult> {
  const [row] = await previewRead(ctx.db, { nodeId: input.nodeId, reservationId: input.reservationId, unitIds: input.unitIds });
  // Step 1: 404 before 403 — the same answers as `openReservation`.
  if (!row) throw notFound(`Node "${input.nodeId}"`);
  const node = { ...row.node, lockedAt: row.lockedAt, positions: new Map(row.unitOrder.map((unitId, position) => [unitId, position])) };
  const relation = row.reservation && relationTo(ctx, node, row.reservation);
  if (!row.reservation || !relation || !maySeeReservation(relation)) throw notFound(`Reservation "${input.reservationId}" on node "${node.id}"`);
  const lctx = atLockTime(ctx, row.lockedAt);
  const reservation = row.reservation;
  const scope = {
    ctx: lctx,
    node,
    reservation,
    relation,
    status: reservationStatus(reservation, node.topologyGen, lctx.now),
    units: row.units ?? [],
    positions: node.positions,
  };
  checkReclaim(scope, input);
  const plan = planEviction(scope, input, holdsNow(reservation, lctx.now) ? (row.onUnits ?? []) : []);
  return { ...plan.current, wouldTerminate: plan.terminate, wouldSkip: plan.skipped };
}

/**
 * A reclaim's read under the node lock, in one statement: the reservation (locked) with its
 * units, and the running VMs on the named units (locked, in id order) — what `openOnLockedNode`
 * and `applyReclaim` would read in two. One snapshot is enough: it is taken once the node lock
 * is held, and every writer of these rows holds that lock first (docs/architecture.md), so
 * nothing can change between the two reads it replaces. The VMs are read whatever the
 * reservation's period; `applyReclaim` ignores them unless it holds its units now.
 */
const reservationAndVmsLocked = preparedStatement((db) => {
  const units = sql<
    ReservationUnitState[]
  >`coalesce((select json_agg(json_build_object('unitId', ru.unit_id, 'released', ru.released)) from ${reservationUnits} ru where ru.node_id = "reservations"."node_id" and ru.reservation_id = "reservations"."id"), '[]'::json)`;
  // `running` is a literal for the partial index `vm_units … WHERE running` (see affectedVms).
  const onUnits = sql<
    AffectedVm[] | null
  >`(select json_agg(json_build_object('id', v.id, 'tier', v.tier, 'orgId', v.org_id, 'unitIds', v.unit_ids) order by v.id) from (
      select v.id, v.tier, v.org_id, array(select vu.unit_id from ${vmUnits} vu where vu.vm_id = v.id) as unit_ids from ${vms} v
      where v.status = 'running' and v.id in (select vu.vm_id from ${vmUnits} vu where vu.node_id = ${sql.placeholder('nodeId')} and vu.running and vu.unit_id = any(${sql.placeholder('unitIds')}::text[]))
      order by v.id for no key update of v) v)`;
  return db
    .select({ reservation: reservations, units, onUnits })
    .from(reservations)
    .where(and(eq(reservations.id, sql.placeholder('reservationId')), eq(reservations.nodeId, sql.placeholder('nodeId'))))
    .for('no key update', { of: reservations })
    .prepare('reclaim_read_locked');
});

async function reclaimOn(tx: Tx, ctx: Ctx, input: ReclaimInput): Promise<ReclaimResult> {
  // Step 1: 404 before 403, under the node then the reservation lock; due schedules run first (§5.6).
  const { node, ctx: lctx } = await lockNodeSettled(tx, ctx, input.nodeId);
  const [row] = await reservationAndVmsLocked(tx, { nodeId: node.id, reservationId: input.reservationId, unitIds: input.unitIds });
  const relation = row && relationTo(lctx, node, row.reservation);
  if (!row || !relation || !maySeeReservation(relation)) throw notFound(`Reservation "${input.reservationId}" on node "${node.id}"`);
  const { reservation, units } = row;
  const scope = {
    ctx: lctx,
    node,
    reservation,
    relation,
    status: reservationStatus(reservation, node.topologyGen, lctx.now),
    units,
    positions: node.positions,
  };
  checkReclaim(scope, input);
  const { result, leaving } = await applyReclaim(tx, scope, input, {}, row.onUnits ?? []);
  // Units taken back now leave the reservation's pending schedules (docs/product.md §5.6).
  await dropScheduledUnits(tx, scope, leaving);
  return result;
}
