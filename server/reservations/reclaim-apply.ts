import type { Tx } from '@/db/client';
import { preparedSql, preparedStatement, toColumnRecord } from '@/db/prepared';
import { notifications, reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { auditEventFact, auditEventRow, auditJson, insertAuditSql } from '../audit/write';
import { eventRows, eventsJson, insertEventsSql, recipientsOf, type EventFact } from '../events/write';
import { closeRowsSql, latestOpenRowsSql, vmOpenRowsSql } from '../intervals/record';
import { DomainError } from '../errors';
import { newId, sortByCodePoint, sortUnitIds } from '../ids';
import { requireAction, type ReservationScope } from './internal';
import { holdsNow, toReservation, type ReclaimResult } from './view';

/*
 * The reclaim itself (docs/product.md §5.1 steps 1–7) on an open scope: shared by the reclaim
 * verb (./reclaim.ts), its plan (./reclaim-plan.ts) and a scheduled reclaim's run
 * (server/scheduled-reclaims/settle.ts), which is why it sits apart from the verb: the verb
 * settles due schedules first, and the schedules run through this.
 */

/** A running VM on a named unit, with all its units: what step 4 plans from. */
export type AffectedVm = { id: string; tier: string; orgId: string; unitIds: string[] };

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
export function planEviction<V extends { id: string; tier: string }>(
  scope: ReservationScope,
  input: { expectedTerminate?: readonly string[] },
  affected: readonly V[],
) {
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
const columnList = (names: readonly string[]) => sql.raw(names.map((n) => `"${n}"`).join(', '));

/**
 * Every write of a reclaim in one statement (step 7): the VMs end whole, their units are
 * freed, the named units leave the market, their intervals and the VMs' close (docs/product.md
 * §5.8), the reservation's `updatedAt` (and reason) move, and its audit event and the evicted
 * tenants' notifications and the events (docs/product.md §5.7) are written — one round trip
 * under the node lock instead of eleven.
 * Data-modifying CTEs all run, referenced or not, on the one snapshot; they touch different
 * rows, so none needs to see another's effect.
 */
const writeReclaim = preparedSql<{ updated: number }>('reclaim_writes', () => {
  const p = (name: string) => sql.placeholder(name);
  // The record of unit intervals (docs/product.md §5.8): the named units' market rows and the
  // evicted VMs' rows end now, by reclaim (server/intervals/record.ts, here with placeholders).
  const now = sql`${p('now')}::timestamptz`;
  const leavingMarket = latestOpenRowsSql({
    nodeId: sql`${p('nodeId')}`,
    reservationId: sql`${p('reservationId')}`,
    kinds: sql`array['released']`,
    units: sql`unnest(${p('leaving')}::text[]) u(unit_id)`,
  });
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
      ${insertAuditSql(p('audit'))}
    ), ${closeRowsSql('released', leavingMarket, now, sql`'reclaim'`)},
    ${closeRowsSql('vm_rows', vmOpenRowsSql(sql`${p('vmIds')}::text[]`), now, sql`'reclaim'`)},
    notified as (
      insert into ${notifications} (${columnList(notificationColumns)})
      select ${columnList(notificationColumns)} from jsonb_populate_recordset(null::notifications, ${p('notifications')}::jsonb) returning seq
    ), told as (
      ${insertEventsSql(p('events'))}
    )
    update ${reservations} set updated_at = ${p('now')}::timestamptz, reason = coalesce(${p('reason')}::text, reason)
    where node_id = ${p('nodeId')} and id = ${p('reservationId')}
    returning 1 as updated`;
});

/** What a reclaim is asked to do once its scope is open and checked (`checkReclaim`). */
export type ReclaimRequest = { unitIds: readonly string[]; reason?: string; expectedTerminate?: readonly string[] };

/**
 * Steps 4 to 7 of docs/product.md §5.1 on a reservation opened under the node and reservation
 * locks and checked (`checkReclaim`): locks and plans the evictions, then writes them. The same
 * for a reclaim now (./reclaim.ts) and a scheduled one run later (docs/product.md §5.6), which
 * passes the scheduler's context and names its schedule in the audit event's details.
 * @param read the running VMs on the named units if the caller read and locked them already
 *   (under the node lock, with the reservation: one round trip less); else read here.
 * @returns the reservation after the change, with `terminated` and `skipped`, and `leaving`: the
 *   units that came off the market.
 * @throws DomainError eviction_set_changed
 */
export async function applyReclaim(
  tx: Tx,
  scope: ReservationScope,
  input: ReclaimRequest,
  details: { scheduleId?: string } = {},
  read?: readonly AffectedVm[],
): Promise<{ result: ReclaimResult; leaving: string[] }> {
  const { ctx: lctx, node, reservation, units, positions } = scope;
  // Step 4: every running VM on a named unit, locked in id order.
  // A reservation evicts only from units it holds now (holdsNow), whatever its status: before
  // its period the VMs on its units run on someone else's capacity (another reservation's
  // released units, or free ones) — also when a topology change made it needs-review, which
  // outranks pending — so its reclaim only takes units off its own future market.
  // `read`: the same VMs, already read and locked under the node lock by the caller (./reclaim.ts).
  const affected = holdsNow(reservation, lctx.now) ? (read ?? (await affectedVms(tx, { nodeId: node.id, unitIds: input.unitIds }))) : [];
  const { current, toTerminate, terminate, skipped } = planEviction(scope, input, affected);

  // Step 7; a reclaim that changes nothing writes nothing.
  const named = new Set(input.unitIds);
  const leaving = units.filter((u) => u.released && named.has(u.unitId)).map((u) => u.unitId);
  if (leaving.length === 0 && terminate.length === 0) return { result: { ...current, terminated: [], skipped }, leaving };
  const unitIds = sortUnitIds(input.unitIds, positions);
  const auditInput = {
    action: 'reservation.reclaim',
    nodeId: node.id,
    reservationId: reservation.id,
    to: recipientsOf(node, reservation),
    unitIds,
    reason: input.reason || undefined,
    details: { terminated: terminate, skipped, ...details },
  } as const;
  const audit = auditEventRow(lctx, auditInput);
  const facts: EventFact[] = [auditEventFact(lctx, auditInput)!];
  // A multi-unit VM ends whole and frees all its units (step 7); its tenant is told which.
  const notices = toTerminate.map((vm) => {
    const vmUnitIds = sortUnitIds(vm.unitIds, positions);
    facts.push({
      type: 'vm.reclaimed',
      at: lctx.now,
      nodeId: node.id,
      data: {
        vmId: vm.id,
        nodeId: node.id,
        unitIds: vmUnitIds,
        orgId: vm.orgId,
        terminatedAt: lctx.now.toISOString(),
        reservationId: reservation.id,
        reason: input.reason || undefined,
      },
      to: recipientsOf(node, undefined, vm.orgId),
    });
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
    audit: auditJson(audit),
    notifications: JSON.stringify(notices),
    events: eventsJson(eventRows(facts)),
  });

  const updated = { ...reservation, updatedAt: lctx.now, reason: input.reason || reservation.reason };
  const after = units.map((u) => (named.has(u.unitId) ? { ...u, released: false } : u));
  return { result: { ...toReservation(updated, after, positions, node.topologyGen, lctx.now), terminated: terminate, skipped }, leaving };
}
