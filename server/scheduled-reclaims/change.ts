import type { Tx } from '@/db/client';
import { reclaimScheduleUnits, reclaimSchedules } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { requireAction, type ReservationScope } from '../reservations/internal';
import type { LockedNode } from '../nodes/internal';
import { enqueueWake, requireScheduleTime } from './create';
import type { CancelReclaimScheduleInput, RescheduleReclaimInput } from './schemas';
import { notifyTenants, openReservationSettled } from './settle';
import { toReclaimScheduleView, type ReclaimScheduleRow, type ReclaimScheduleView } from './view';
import { recipientsOf } from '../events/write';

/**
 * Opens a pending schedule for a change: node (due schedules run first), reservation, then the
 * schedule row, all locked; the caller must be one who may reclaim (§2).
 * @throws DomainError not_found (node, reservation or schedule), forbidden, schedule_not_pending.
 */
async function openPendingSchedule(
  tx: Tx,
  ctx: Ctx,
  input: { nodeId: string; reservationId: string; scheduleId: string },
): Promise<{ s: ReservationScope & { node: LockedNode }; row: ReclaimScheduleRow }> {
  const s = await openReservationSettled(tx, ctx, input.nodeId, input.reservationId);
  const [row] = await tx
    .select()
    .from(reclaimSchedules)
    .where(and(eq(reclaimSchedules.id, input.scheduleId), eq(reclaimSchedules.nodeId, s.node.id), eq(reclaimSchedules.reservationId, s.reservation.id)))
    .for('update');
  if (!row) throw notFound(`Scheduled reclaim "${input.scheduleId}" of reservation "${s.reservation.id}"`);
  // Who may change it: those who may reclaim, as on creation; 403 before the 409s.
  requireAction(s, 'reclaim');
  if (row.status !== 'pending') {
    throw new DomainError('schedule_not_pending', `Scheduled reclaim "${row.id}" is ${row.status}; only a pending one can be changed or cancelled.`, {
      scheduleStatus: row.status,
    });
  }
  return { s, row };
}

/**
 * Moves a pending scheduled reclaim to another time (docs/product.md §5.6): the same time rules
 * as on creation; its tenants are told again (`notBefore` the new time). Same principals as reclaim.
 * A move to the time it already has changes nothing and writes nothing.
 * @returns the schedule after the change.
 * @throws DomainError not_found, forbidden, reservation_not_reclaimable, schedule_not_pending
 *   (`scheduleStatus`), invalid_schedule_time (`at`).
 */
export async function rescheduleReclaim({ ctx, input }: { ctx: Ctx; input: RescheduleReclaimInput }): Promise<ReclaimScheduleView> {
  return inTransaction(ctx, async (tx) => {
    const { s, row } = await openPendingSchedule(tx, ctx, input);
    requireScheduleTime(s, input.at);
    if (row.at.getTime() === input.at.getTime()) return toReclaimScheduleView(s.ctx, row, s.positions);
    const [updated] = await tx.update(reclaimSchedules).set({ at: input.at, updatedAt: s.ctx.now }).where(eq(reclaimSchedules.id, row.id)).returning();
    const told = await notifyTenants(tx, s.ctx.now, s.node, { at: input.at, unitIds: row.unitIds, reason: row.reason }, 'rescheduled', row.at);
    await writeAuditEvent(tx, s.ctx, {
      action: 'reclaim_schedule.update',
      nodeId: s.node.id,
      reservationId: s.reservation.id,
      to: recipientsOf(s.node, s.reservation),
      unitIds: row.unitIds,
      details: { scheduleId: row.id, at: input.at.toISOString(), previousAt: row.at.toISOString(), tenantsTold: told },
    });
    await enqueueWake(tx, s.ctx, s.node.id, row.id, input.at);
    return toReclaimScheduleView(s.ctx, updated!, s.positions);
  });
}

/**
 * Cancels a pending scheduled reclaim (docs/product.md §5.6): status `cancelled`, its units free
 * for another schedule, its tenants told it will not come. Same principals as reclaim. A
 * schedule no longer pending is 409 `schedule_not_pending` with its `scheduleStatus`.
 * @returns the schedule, status cancelled.
 * @throws DomainError not_found, forbidden, schedule_not_pending.
 */
export async function cancelReclaimSchedule({ ctx, input }: { ctx: Ctx; input: CancelReclaimScheduleInput }): Promise<ReclaimScheduleView> {
  return inTransaction(ctx, async (tx) => {
    const { s, row } = await openPendingSchedule(tx, ctx, input);
    const [updated] = await tx.update(reclaimSchedules).set({ status: 'cancelled', updatedAt: s.ctx.now }).where(eq(reclaimSchedules.id, row.id)).returning();
    await tx.delete(reclaimScheduleUnits).where(eq(reclaimScheduleUnits.scheduleId, row.id));
    const told = await notifyTenants(tx, s.ctx.now, s.node, { at: row.at, unitIds: row.unitIds, reason: row.reason }, 'cancelled');
    await writeAuditEvent(tx, s.ctx, {
      action: 'reclaim_schedule.cancel',
      nodeId: s.node.id,
      reservationId: s.reservation.id,
      to: recipientsOf(s.node, s.reservation),
      unitIds: row.unitIds,
      details: { scheduleId: row.id, at: row.at.toISOString(), tenantsTold: told },
    });
    return toReclaimScheduleView(s.ctx, updated!, s.positions);
  });
}
