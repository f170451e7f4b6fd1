import type { Tx } from '@/db/client';
import {
  notifications,
  reclaimScheduleUnits,
  reclaimSchedules,
  reservations,
  vmUnits,
  vms,
  type ReclaimNoticeChange,
  type ReclaimScheduleLapse,
} from '@/db/schema';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { testClockEnabled } from '../clock';
import { recipientsOf, writeEvents, type EventFact, type Recipients } from '../events/write';
import { actorOfColumns, SettleFirst, systemCtx, type Ctx, type Principal } from '../context';
import { newId, sortUnitIds } from '../ids';
import { lockNode, type LockedNode } from '../nodes/internal';
import { canReservationAction, relationTo } from '../policy';
import { findReservationOnNode, openOnLockedNode, type ReservationScope } from '../reservations/internal';
import { applyReclaim } from '../reservations/reclaim-apply';
import { reservationStatus } from '../reservations/view';
import { toDateOrNull } from './reclaim-at';
import type { ReclaimScheduleRow } from './view';

/**
 * How scheduled reclaims settle (docs/product.md §5.6). A schedule runs exactly once by the
 * change of its row `pending` → `done`, made under the node lock in the transaction of the
 * reclaim itself: whichever instance gets the node lock first — the sweeper, woken or polling,
 * or any writer on the node — runs what is due, and the next one finds nothing pending. No job
 * lock or in-memory flag decides it. Due-ness is `at <= now` with `now` the lock time (the
 * request clock, test clock included), never a job runner's `run_at`.
 *
 * Lock order: node, then (per due schedule, in `at`, id order) the schedule rows, the
 * reservation, then the VMs by id — every schedule write happens under the node lock, so the
 * order below it cannot deadlock.
 */

/** The job name a lapse and the platform's own schedule work are audited as (docs/product.md §9 j). */
export const SCHEDULE_JOB = 'schedule';

/**
 * `lockNode` for writers: locks the node, then runs its due scheduled reclaims first (docs/product.md
 * §5.6 "the next writer on that node runs the due reclaims first"), so a placement on a unit past
 * its reclaim time is refused even while no sweeper runs. Costs no statement when none is due:
 * the lock's own read reports the node's next `at`.
 * @throws DomainError not_found
 */
export async function lockNodeSettled(tx: Tx, ctx: Ctx, nodeId: string): Promise<{ node: LockedNode; ctx: Ctx }> {
  const locked = await lockNode(tx, ctx, nodeId, 'write');
  const next = locked.node.nextReclaimAt;
  if (next && next <= locked.ctx.now) {
    // Run in a transaction of its own (inTransaction commits it, then retries this writer), so
    // the run stands whatever this writer then does.
    throw new SettleFirst(async (db) => {
      await db.transaction(async (own) => {
        const again = await lockNode(own, ctx, nodeId, 'write');
        await runDueOnLockedNode(own, again.ctx, again.node);
      });
    });
  }
  return locked;
}

/**
 * `openReservation(…, 'write')` for writers, with the node's due scheduled reclaims run first
 * (see `lockNodeSettled`).
 * @throws DomainError not_found
 */
export async function openReservationSettled(tx: Tx, ctx: Ctx, nodeId: string, reservationId: string): Promise<ReservationScope & { node: LockedNode }> {
  const locked = await lockNodeSettled(tx, ctx, nodeId);
  return openOnLockedNode(tx, locked, reservationId, 'write');
}

/**
 * Runs every due pending schedule of a node whose lock `tx` holds, oldest `at` first, and
 * updates `node.nextReclaimAt` to what stays pending.
 * @param lctx the context at lock time: its `now` judges due-ness.
 * @returns how many ran or lapsed.
 */
export async function runDueOnLockedNode(tx: Tx, lctx: Ctx, node: LockedNode): Promise<number> {
  if (!node.nextReclaimAt || node.nextReclaimAt > lctx.now) return 0;
  // SKIP LOCKED: rows another transaction holds are its to settle (under this node lock none
  // can be, but the sweep's own search relies on the same rule).
  const due = await tx
    .select()
    .from(reclaimSchedules)
    .where(and(eq(reclaimSchedules.nodeId, node.id), eq(reclaimSchedules.status, 'pending'), lte(reclaimSchedules.at, lctx.now)))
    .orderBy(asc(reclaimSchedules.at), asc(reclaimSchedules.id))
    .for('update', { skipLocked: true });
  for (const schedule of due) await runSchedule(tx, lctx, node, schedule);
  const [next] = await tx
    .select({ at: sql<Date | null>`min(${reclaimSchedules.at})`.mapWith(toDateOrNull) })
    .from(reclaimSchedules)
    .where(and(eq(reclaimSchedules.nodeId, node.id), eq(reclaimSchedules.status, 'pending')));
  node.nextReclaimAt = next?.at ?? null;
  return due.length;
}

/**
 * The fault test's pause (scripts/stress/schedules.ts): a run of a schedule whose reason is
 * RECLAIM_RUN_HOLD_REASON waits RECLAIM_RUN_HOLD_MS before committing, holding its locks, so the
 * instance running it can be killed mid-run. Only when TEST_CLOCK=1: a normal start never waits.
 */
async function holdRunForFaultTest(s: ReclaimScheduleRow): Promise<void> {
  const ms = Number(process.env.RECLAIM_RUN_HOLD_MS ?? 0);
  if (!testClockEnabled() || !(ms > 0) || s.reason !== process.env.RECLAIM_RUN_HOLD_REASON) return;
  console.error(`[reclaim-sweeper] holding the run of ${s.id} for ${ms} ms (RECLAIM_RUN_HOLD_MS)`);
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** The principal a schedule's run acts as: its scheduler, `via: 'schedule'` (docs/product.md §5.6, §9 j). */
function schedulerOf(s: ReclaimScheduleRow): Principal {
  const actor = actorOfColumns({ userId: s.createdByUserId, apiKeyId: s.createdByApiKeyId, job: s.createdByJob }, SCHEDULE_JOB);
  return { orgId: s.createdByOrgId, actor, via: 'schedule' };
}

/** One due schedule: its reclaim as its scheduler, or a lapse when that can no longer be. */
async function runSchedule(tx: Tx, lctx: Ctx, node: LockedNode, s: ReclaimScheduleRow): Promise<void> {
  const found = await findReservationOnNode(tx, node.id, s.reservationId, 'write');
  if (!found) return lapseSchedules(tx, lctx, node, [s], 'reservation_cancelled');
  const { reservation, units } = found;
  const status = reservationStatus(reservation, node.topologyGen, lctx.now);
  if (status === 'cancelled') return lapseSchedules(tx, lctx, node, [s], 'reservation_cancelled');
  if (status === 'expired') return lapseSchedules(tx, lctx, node, [s], 'reservation_ended');
  // The run re-checks the scheduler's permission as of now (§5.6): an org no longer managing
  // the reservation, or no longer owning the node, may not reclaim through an old schedule.
  const scheduler = schedulerOf(s);
  const relation = relationTo(scheduler, node, reservation);
  if (!canReservationAction('reclaim', relation, { id: reservation.id, status })) return lapseSchedules(tx, lctx, node, [s], 'scheduler_may_not_reclaim');
  const held = new Set(units.map((u) => u.unitId));
  const unitIds = s.unitIds.filter((u) => held.has(u));
  if (unitIds.length === 0) return lapseSchedules(tx, lctx, node, [s], 'no_units_left');

  const sctx: Ctx = { ...scheduler, db: tx, now: lctx.now, clock: 'fixed' };
  const scope: ReservationScope = { ctx: sctx, node, reservation, relation, status, units, positions: node.positions };
  const { result } = await applyReclaim(tx, scope, { unitIds, ...(s.reason ? { reason: s.reason } : {}) }, { scheduleId: s.id });
  await holdRunForFaultTest(s);
  await tx
    .update(reclaimSchedules)
    .set({ status: 'done', outcome: { terminated: result.terminated ?? [], skipped: result.skipped ?? [] }, updatedAt: lctx.now })
    .where(eq(reclaimSchedules.id, s.id));
  await tx.delete(reclaimScheduleUnits).where(eq(reclaimScheduleUnits.scheduleId, s.id));
  await writeEvents(tx, [
    {
      type: 'reclaim_schedule.done',
      at: lctx.now,
      nodeId: node.id,
      data: {
        nodeId: node.id,
        reservationId: reservation.id,
        scheduleId: s.id,
        unitIds: sortUnitIds(unitIds, node.positions),
        at: s.at.toISOString(),
        terminated: result.terminated ?? [],
        skipped: result.skipped ?? [],
      },
      to: recipientsOf(node, reservation),
    },
  ]);
}

/**
 * Who stands to each of some reservations of a locked node now: the recipients of the events of
 * their schedules (docs/product.md §5.7). One read, for the paths that have no reservation in scope.
 */
async function recipientsByReservation(tx: Tx, node: LockedNode, ids: readonly string[]): Promise<Map<string, Recipients>> {
  const rows = await tx
    .select({ id: reservations.id, allowedOrgIds: reservations.allowedOrgIds, managingOrgIds: reservations.managingOrgIds })
    .from(reservations)
    .where(and(eq(reservations.nodeId, node.id), inArray(reservations.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, recipientsOf(node, r)]));
}

/**
 * Lapses pending schedules (docs/product.md §5.6): status `lapsed` with why, their units freed for
 * other schedules, a `reclaim_schedule.lapse` event each naming the system job, and the tenants
 * on their units told the reclaim will not come.
 */
export async function lapseSchedules(tx: Tx, lctx: Ctx, node: LockedNode, schedules: readonly ReclaimScheduleRow[], why: ReclaimScheduleLapse): Promise<void> {
  if (schedules.length === 0) return;
  const ids = schedules.map((s) => s.id);
  // A schedule that lost its last unit has no tenant left to tell: notifyTenants writes nothing then.
  await tx.update(reclaimSchedules).set({ status: 'lapsed', lapseReason: why, updatedAt: lctx.now }).where(inArray(reclaimSchedules.id, ids));
  await tx.delete(reclaimScheduleUnits).where(inArray(reclaimScheduleUnits.scheduleId, ids));
  const job = systemCtx(tx, SCHEDULE_JOB, lctx.now);
  const to = await recipientsByReservation(
    tx,
    node,
    schedules.map((s) => s.reservationId),
  );
  for (const s of schedules) {
    await writeAuditEvent(tx, job, {
      action: 'reclaim_schedule.lapse',
      nodeId: node.id,
      reservationId: s.reservationId,
      to: to.get(s.reservationId) ?? recipientsOf(node),
      unitIds: sortUnitIds(s.unitIds, node.positions),
      details: { scheduleId: s.id, at: s.at.toISOString(), lapseReason: why },
    });
    await notifyTenants(tx, lctx.now, node, { at: s.at, unitIds: s.unitIds, reason: s.reason }, 'lapsed');
  }
}

/**
 * Lapses the pending schedules of one reservation that can no longer run: all of them when it
 * is cancelled, those at or after a new `endsAt` when it ends earlier (docs/product.md §5.6).
 * No statement when the node has none pending.
 */
export async function lapseForReservation(
  tx: Tx,
  lctx: Ctx,
  node: LockedNode,
  reservationId: string,
  why: 'reservation_cancelled' | 'reservation_ended',
  endsAt?: Date | null,
): Promise<void> {
  if (!node.nextReclaimAt) return;
  if (why === 'reservation_ended' && !endsAt) return;
  const rows = await tx
    .select()
    .from(reclaimSchedules)
    .where(
      and(
        eq(reclaimSchedules.nodeId, node.id),
        eq(reclaimSchedules.reservationId, reservationId),
        eq(reclaimSchedules.status, 'pending'),
        endsAt ? sql`${reclaimSchedules.at} >= ${endsAt.toISOString()}::timestamptz` : undefined,
      ),
    )
    .for('update');
  await lapseSchedules(tx, lctx, node, rows, why);
}

/**
 * Drops units that left a reservation — a shrink, a topology change, an immediate reclaim — from
 * its pending schedules (docs/product.md §5.6): each schedule that loses some is audited as a
 * `reclaim_schedule.update` by the acting principal with the dropped units, their tenants are
 * told, and a schedule left with none lapses. No statement when the node has none pending.
 * @param reservationId absent: from every reservation on the node (units removed from the node).
 */
export async function dropScheduledUnits(tx: Tx, scope: { ctx: Ctx; node: LockedNode }, unitIds: readonly string[], reservationId?: string): Promise<void> {
  const { ctx: lctx, node } = scope;
  if (!node.nextReclaimAt || unitIds.length === 0) return;
  const dropped = await tx
    .delete(reclaimScheduleUnits)
    .where(
      and(
        eq(reclaimScheduleUnits.nodeId, node.id),
        reservationId ? eq(reclaimScheduleUnits.reservationId, reservationId) : undefined,
        inArray(reclaimScheduleUnits.unitId, [...unitIds]),
      ),
    )
    .returning({ scheduleId: reclaimScheduleUnits.scheduleId, unitId: reclaimScheduleUnits.unitId });
  if (dropped.length === 0) return;
  const bySchedule = new Map<string, string[]>();
  for (const d of dropped) bySchedule.set(d.scheduleId, [...(bySchedule.get(d.scheduleId) ?? []), d.unitId]);
  const rows = await tx
    .select()
    .from(reclaimSchedules)
    .where(inArray(reclaimSchedules.id, [...bySchedule.keys()]))
    .orderBy(asc(reclaimSchedules.id))
    .for('update');
  const emptied: ReclaimScheduleRow[] = [];
  const to = await recipientsByReservation(
    tx,
    node,
    rows.map((s) => s.reservationId),
  );
  for (const s of rows) {
    const gone = new Set(bySchedule.get(s.id));
    const kept = s.unitIds.filter((u) => !gone.has(u));
    const droppedIds = sortUnitIds(gone, node.positions);
    await tx.update(reclaimSchedules).set({ unitIds: kept, updatedAt: lctx.now }).where(eq(reclaimSchedules.id, s.id));
    await writeAuditEvent(tx, lctx, {
      action: 'reclaim_schedule.update',
      nodeId: node.id,
      reservationId: s.reservationId,
      to: to.get(s.reservationId) ?? recipientsOf(node),
      unitIds: droppedIds,
      details: { scheduleId: s.id, at: s.at.toISOString(), droppedUnitIds: droppedIds, unitIds: sortUnitIds(kept, node.positions) },
    });
    await notifyTenants(tx, lctx.now, node, { at: s.at, unitIds: droppedIds, reason: s.reason }, 'dropped');
    if (kept.length === 0) emptied.push({ ...s, unitIds: [] });
  }
  // A schedule left with no unit can never run: it lapses (its units' tenants were just told).
  await lapseSchedules(tx, lctx, node, emptied, 'no_units_left');
}

const noticeText: Record<ReclaimNoticeChange, (vm: string, where: string, at: string, previous?: string) => string> = {
  scheduled: (vm, where, at) => `Your spot VM ${vm} on ${where} will be reclaimed at ${at}: the capacity holder scheduled it. It runs until then.`,
  rescheduled: (vm, where, at, previous) => `The reclaim of your spot VM ${vm} on ${where} moved from ${previous} to ${at}. It runs until then.`,
  cancelled: (vm, where, at) => `The reclaim of your spot VM ${vm} on ${where} scheduled for ${at} was cancelled; it keeps running.`,
  dropped: (vm, where, at) => `The reclaim scheduled for ${at} no longer includes your spot VM ${vm} on ${where}; it keeps running.`,
  lapsed: (vm, where, at) => `The reclaim of your spot VM ${vm} on ${where} scheduled for ${at} will not happen; it keeps running.`,
};

/**
 * Tells each spot tenant running on `schedule.unitIds` now what changed (docs/product.md §5.6):
 * one `vm.reclaim_scheduled` notification per VM, `notBefore` the reclaim's time, in the
 * transaction of the change. Never the holder, the reservation or the schedule (§9 h).
 * @returns how many VMs were told.
 */
export async function notifyTenants(
  tx: Tx,
  now: Date,
  node: LockedNode,
  schedule: { at: Date; unitIds: readonly string[]; reason?: string | null },
  change: ReclaimNoticeChange,
  previousAt?: Date,
): Promise<number> {
  if (schedule.unitIds.length === 0) return 0;
  const onUnits = tx
    .select({ vmId: vmUnits.vmId })
    .from(vmUnits)
    .where(and(eq(vmUnits.nodeId, node.id), sql`${vmUnits.running}`, inArray(vmUnits.unitId, [...schedule.unitIds])));
  const tenants = await tx
    .select({ id: vms.id, orgId: vms.orgId, unitIds: sql<string[]>`array(select vu.unit_id from ${vmUnits} vu where vu.vm_id = "vms"."id")` })
    .from(vms)
    .where(and(inArray(vms.id, onUnits), sql`${vms.status} = 'running'`, sql`${vms.tier} = 'spot'`))
    .orderBy(asc(vms.id));
  if (tenants.length === 0) return 0;
  const at = schedule.at.toISOString();
  const previous = previousAt?.toISOString();
  const facts: EventFact[] = [];
  await tx.insert(notifications).values(
    tenants.map((vm) => {
      const unitIds = sortUnitIds(vm.unitIds, node.positions);
      const reason = schedule.reason ? ` (reason: ${schedule.reason})` : '';
      facts.push({
        type: 'vm.reclaim_scheduled',
        at: now,
        nodeId: node.id,
        data: {
          vmId: vm.id,
          nodeId: node.id,
          unitIds,
          orgId: vm.orgId,
          change,
          reclaimAt: at,
          notBefore: at,
          previousAt: previous,
          reason: schedule.reason ?? undefined,
        },
        to: recipientsOf(node, undefined, vm.orgId),
      });
      return {
        id: newId('ntf'),
        orgId: vm.orgId,
        at: now,
        kind: 'vm.reclaim_scheduled' as const,
        message: noticeText[change](vm.id, `node ${node.id} (${unitIds.join(', ')})`, at, previous) + reason,
        details: {
          vmId: vm.id,
          nodeId: node.id,
          unitIds,
          change,
          reclaimAt: at,
          notBefore: at,
          ...(previous ? { previousAt: previous } : {}),
          ...(schedule.reason ? { reason: schedule.reason } : {}),
        },
      };
    }),
  );
  // The same notice as an event to each tenant (docs/product.md §5.7); no holder, no schedule.
  await writeEvents(tx, facts);
  return tenants.length;
}
