import type { Tx } from '@/db/client';
import { preparedSql, preparedStatement, toColumnRecord } from '@/db/prepared';
import { auditEvents, nodeUnits, nodes, notifications, reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { auditEventRow } from '../audit/write';
import { atLockTime, inTransaction, type Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { newId, sortByCodePoint, sortUnitIds } from '../ids';
import { maySeeReservation, relationTo } from '../policy';
import { openReservation, requireAction, type ReservationScope } from './internal';
import type { ReclaimInput } from './schemas';
import { holdsNow, reservationStatus, toReservation, type ReclaimResult, type ReservationUnitState } from './view';

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

/** The running VMs on any of the named units, locked in id order, each with all its units. */
const affectedVms = preparedStatement((db) => {
  // `running` is written as a literal, never a parameter: only then can the plan use the
  // partial index `vm_units … WHERE running`, generic plans included.
  const onUnits = db
    .select({ vmId: vmUnits.vmId })
    .from(vmUnits)
    .where(and(eq(vmUnits.nodeId, sql.placeholder('nodeId')), sql`${vmUnits.running}`, sql`${vmUnits.unitId} = any(${sql.placeholder('unitIds')}::text[])`));
  const q = db
    .select({ id: vms.id, tier: vms.tier, orgId: vms.orgId, unitIds: sql<string[]>`array(select vu.unit_id from ${vmUnits} vu where vu.vm_id = "vms"."id")` })
    .from(vms)
    .where(and(inArray(vms.id, onUnits), sql`${vms.status} = 'running'`))
    .orderBy(asc(vms.id));
  return q.for('no key update', { of: vms }).prepare('reclaim_vms_locked');
});

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
 * Step 1's 403, then steps 2 and 3 of docs/product.md §5.1 on what was read: the reclaim is
 * allowed and names only the reservation's units. The same for a dry run, a real one and a plan
 * (./reclaim-plan.ts).
 * @throws DomainError forbidden, reservation_not_reclaimable, unit_not_in_reservation
 */
export function checkReclaim(
  scope: Pick<ReservationScope, 'reservation' | 'relation' | 'status' | 'units' | 'positions'>,
  input: { unitIds: readonly string[] },
): void {
  const { reservation, relation, status, units, positions } = scope;
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
}

/**
 * Steps 4 to 6 of docs/product.md §5.1: who would be terminated and skipped, checked against
 * the caller's preview. The same for a dry run and a real one, so the preview is what the
 * reclaim then does.
 * @param affected the running VMs on the named units, when the reservation holds them now.
 * @throws DomainError eviction_set_changed
 */
function planEviction<V extends { id: string; tier: string }>(scope: ReservationScope, input: ReclaimInput, affected: readonly V[]) {
  const { ctx: lctx, node, reservation, units, positions } = scope;
  // Step 4: spot VMs are terminated, the others skipped.
  const toTerminate = affected.filter((v) => v.tier === 'spot');
  const terminate = sortByCodePoint(toTerminate.map((v) => v.id));
  const skipped = sortByCodePoint(affected.filter((v) => v.tier !== 'spot').map((v) => v.id));

  // Step 5.
  if (input.expectedTerminate) {
    const expected = new Set(input.expectedTerminate);
    const same = expected.size === terminate.length && terminate.every((id) => expected.has(id));
    if (!same) {
      throw new DomainError(
        'eviction_set_changed',
        'The spot VMs this reclaim would terminate changed since your preview; review the current set and confirm again.',
        {
          terminate,
        },
      );
    }
  }

  // Step 6.
  const current = toReservation(reservation, units, positions, node.topologyGen, lctx.now);
  return { current, toTerminate, terminate, skipped };
}

const notificationColumns = ['id', 'org_id', 'at', 'kind', 'message', 'details'] as const;
const auditColumns = Object.values(getTableColumns(auditEvents))
  .map((c) => c.name)
  .filter((name) => name !== 'seq');
const columnList = (names: readonly string[]) => sql.raw(names.map((n) => `"${n}"`).join(', '));

/**
 * Every write of a reclaim in one statement (step 7): the VMs end whole, their units are
 * freed, the named units leave the market, the reservation's `updatedAt` (and reason) move,
 * and its audit event and the evicted tenants' notifications are written — one round trip
 * under the node lock instead of six. Data-modifying CTEs all run, referenced or not, on the
 * one snapshot; they touch different rows, so none needs to see another's effect.
 */
const writeReclaim = preparedSql<{ updated: number }>('reclaim_writes', () => {
  const p = (name: string) => sql.placeholder(name);
  return sql`
    with ended as (
      update ${vms} set status = 'terminated', terminated_at = ${p('now')}::timestamptz, termination_reason = 'reclaimed'
      where id = any(${p('vmIds')}::text[]) returning id
    ), freed as (
      update ${vmUnits} set running = false where vm_id = any(${p('vmIds')}::text[]) returning vm_id
    ), back as (
      update ${reservationUnits} set released = false
      where node_id = ${p('nodeId')} and reservation_id = ${p('reservationId')} and unit_id = any(${p('leaving')}::text[]) returning unit_id
    ), audit as (
      insert into ${auditEvents} (${columnList(auditColumns)})
      select ${columnList(auditColumns)} from jsonb_populate_record(null::audit_events, ${p('audit')}::jsonb) returning seq
    ), notified as (
      insert into ${notifications} (${columnList(notificationColumns)})
      select ${columnList(notificationColumns)} from jsonb_populate_recordset(null::notifications, ${p('notifications')}::jsonb) returning seq
    )
    update ${reservations} set updated_at = ${p('now')}::timestamptz, reason = coalesce(${p('reason')}::text, reason)
    where node_id = ${p('nodeId')} and id = ${p('reservationId')}
    returning 1 as updated`;
});

async function reclaimOn(tx: Tx, ctx: Ctx, input: ReclaimInput): Promise<ReclaimResult> {
  // Step 1: 404 before 403, under the node then the reservation lock.
  const scope = await openReservation(tx, ctx, input.nodeId, input.reservationId, 'write');
  const { ctx: lctx, node, reservation, units, positions } = scope;
  // Step 4: every running VM on a named unit, locked in id order.
  // A reservation evicts only from units it holds now (holdsNow), whatever its status: before
  // its period the VMs on its units run on someone else's capacity (another reservation's
  // released units, or free ones) — also when a topology change made it needs-review, which
  // outranks pending — so its reclaim only takes units off its own future market.
  checkReclaim(scope, input);
  const affected = holdsNow(reservation, lctx.now) ? await affectedVms(tx, { nodeId: node.id, unitIds: input.unitIds }) : [];
  const { current, toTerminate, terminate, skipped } = planEviction(scope, input, affected);

  // Step 7; a reclaim that changes nothing writes nothing.
  const named = new Set(input.unitIds);
  const leaving = units.filter((u) => u.released && named.has(u.unitId)).map((u) => u.unitId);
  if (leaving.length === 0 && terminate.length === 0) return { ...current, terminated: [], skipped };

  const unitIds = sortUnitIds(input.unitIds, positions);
  const audit = auditEventRow(lctx, {
    action: 'reservation.reclaim',
    nodeId: node.id,
    reservationId: reservation.id,
    unitIds,
    reason: input.reason || undefined,
    details: { terminated: terminate, skipped },
  });
  // A multi-unit VM ends whole and frees all its units (step 7); its tenant is told which.
  const notices = toTerminate.map((vm) => {
    const vmUnitIds = sortUnitIds(vm.unitIds, positions);
    return toColumnRecord(notifications, {
      id: newId('ntf'),
      orgId: vm.orgId,
      at: lctx.now,
      kind: 'vm.reclaimed',
      message: `Your spot VM ${vm.id} on node ${node.id} (${vmUnitIds.join(', ')}) was terminated: the capacity holder reclaimed its units${input.reason ? ` (reason: ${input.reason})` : ''}.`,
      details: {
        vmId: vm.id,
        nodeId: node.id,
        unitIds: vmUnitIds,
        terminationReason: 'reclaimed',
        terminatedAt: lctx.now.toISOString(),
        ...(input.reason ? { reason: input.reason } : {}),
      },
    });
  });
  await writeReclaim(tx, {
    now: lctx.now.toISOString(),
    nodeId: node.id,
    reservationId: reservation.id,
    vmIds: terminate,
    leaving,
    reason: input.reason || null,
    audit: JSON.stringify(toColumnRecord(auditEvents, audit)),
    notifications: JSON.stringify(notices),
  });

  const updated = { ...reservation, updatedAt: lctx.now, reason: input.reason || reservation.reason };
  const after = units.map((u) => (named.has(u.unitId) ? { ...u, released: false } : u));
  return { ...toReservation(updated, after, positions, node.topologyGen, lctx.now), terminated: terminate, skipped };
}
