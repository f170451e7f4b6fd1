import type { Tx } from '@/db/client';
import { reclaimScheduleUnits, reclaimSchedules } from '@/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { actorColumns, inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { newId, sortUnitIds } from '../ids';
import { checkReclaim } from '../reservations/reclaim-apply';
import type { ReservationScope } from '../reservations/internal';
import type { CreateReclaimScheduleInput } from './schemas';
import { notifyTenants, openReservationSettled } from './settle';
import { toReclaimScheduleView, type ReclaimScheduleView } from './view';
import { recipientsOf } from '../events/write';

/** How far ahead a reclaim may be scheduled (docs/product.md §5.6). */
export const MAX_SCHEDULE_AHEAD_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * `at` must be in the future, at most 30 days ahead, and before the reservation's `endsAt`
 * (docs/product.md §5.6), judged at lock time.
 * @throws DomainError invalid_schedule_time naming the field `at`.
 */
export function requireScheduleTime(scope: Pick<ReservationScope, 'ctx' | 'reservation'>, at: Date): void {
  const now = scope.ctx.now;
  const refuse = (message: string, detail: string) => {
    throw new DomainError('invalid_schedule_time', detail, { errors: [{ path: 'body.at', message }] });
  };
  if (at <= now) refuse('must be in the future', `at must be in the future (it is now ${now.toISOString()}); to reclaim now, reclaim.`);
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_DAYS * DAY_MS) {
    refuse(
      `must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`,
      `at must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead (before ${new Date(now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS).toISOString()}).`,
    );
  }
  const endsAt = scope.reservation.endsAt;
  if (endsAt && at >= endsAt)
    refuse('must be before the reservation ends', `at must be before the reservation ends at ${endsAt.toISOString()}: it no longer holds the units then.`);
}

/**
 * Wakes every instance at `at` through the job runner's queue (server/scheduled-reclaims/sweep.ts):
 * one job per schedule, moved on reschedule. Only a wake-up: the run is decided by our own SQL.
 * The queue runs on real time, so the test clock's offset comes off.
 */
export async function enqueueWake(tx: Tx, ctx: Ctx, nodeId: string, scheduleId: string, at: Date): Promise<void> {
  const runAt = new Date(at.getTime() - (ctx.clockOffsetMs ?? 0));
  await tx.execute(sql`select wake_reclaim_schedule(${nodeId}, ${scheduleId}, ${runAt.toISOString()}::timestamptz)`);
}

/**
 * Schedules a reclaim of units of a reservation at a future time (docs/product.md §5.6). Same
 * principals and checks as a reclaim (§5.1 steps 1–3), then the time, then that no unit is in
 * another pending schedule of the reservation. Every spot tenant running on the units is told
 * now, `notBefore = at`; the run acts as the caller.
 * @returns the schedule, status pending.
 * @throws DomainError not_found, forbidden (the audience), reservation_not_reclaimable,
 *   unit_not_in_reservation, invalid_schedule_time (422, `at`), already_scheduled (409, `unitIds`).
 */
export async function createReclaimSchedule({ ctx, input }: { ctx: Ctx; input: CreateReclaimScheduleInput }): Promise<ReclaimScheduleView> {
  return inTransaction(ctx, async (tx) => {
    const s = await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
    checkReclaim(s, input);
    requireScheduleTime(s, input.at);
    const unitIds = sortUnitIds(input.unitIds, s.positions);
    // The primary key of reclaim_schedule_units holds the rule; this names the units first.
    const taken = await tx
      .select({ unitId: reclaimScheduleUnits.unitId })
      .from(reclaimScheduleUnits)
      .where(
        and(
          eq(reclaimScheduleUnits.nodeId, s.node.id),
          eq(reclaimScheduleUnits.reservationId, s.reservation.id),
          inArray(reclaimScheduleUnits.unitId, unitIds),
        ),
      );
    if (taken.length > 0) {
      const ids = sortUnitIds(
        taken.map((t) => t.unitId),
        s.positions,
      );
      throw new DomainError(
        'already_scheduled',
        `Units ${ids.join(', ')} are already in a pending scheduled reclaim of reservation "${s.reservation.id}"; reschedule or cancel that one.`,
        {
          unitIds: ids,
        },
      );
    }
    const { ctx: lctx } = s;
    const creator = actorColumns(lctx.actor);
    const [row] = await tx
      .insert(reclaimSchedules)
      .values({
        id: newId('rcs'),
        nodeId: s.node.id,
        reservationId: s.reservation.id,
        unitIds,
        at: input.at,
        reason: input.reason || null,
        status: 'pending',
        createdAt: lctx.now,
        updatedAt: lctx.now,
        createdByOrgId: lctx.orgId,
        createdByUserId: creator.userId,
        createdByApiKeyId: creator.apiKeyId,
        createdByJob: creator.job,
      })
      .returning();
    await tx
      .insert(reclaimScheduleUnits)
      .values(unitIds.map((unitId) => ({ nodeId: s.node.id, reservationId: s.reservation.id, unitId, scheduleId: row!.id })));
    const told = await notifyTenants(tx, lctx.now, s.node, { at: input.at, unitIds, reason: input.reason }, 'scheduled');
    await writeAuditEvent(tx, lctx, {
      action: 'reclaim_schedule.create',
      nodeId: s.node.id,
      reservationId: s.reservation.id,
      to: recipientsOf(s.node, s.reservation),
      unitIds,
      reason: input.reason || undefined,
      details: { scheduleId: row!.id, at: input.at.toISOString(), tenantsTold: told },
    });
    await enqueueWake(tx, lctx, s.node.id, row!.id, input.at);
    return toReclaimScheduleView(lctx, row!, s.positions);
  });
}
