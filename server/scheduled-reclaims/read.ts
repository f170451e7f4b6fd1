import { reclaimSchedules } from '@/db/schema';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { notFound } from '../errors';
import { readNode } from '../nodes/internal';
import { compositeKey, decodeCompositeCursor, malformedCursor, toPage, type Page } from '../pagination';
import { assertMaySeeReclaimSchedules } from '../policy';
import { withOrgNames, type Named } from '../orgs/internal';
import { findVisibleReservation } from '../reservations/internal';
import type { GetReclaimScheduleInput, ListReclaimSchedulesInput } from './schemas';
import { toReclaimScheduleView, type ReclaimScheduleView } from './view';

/** The reservation the schedules belong to, visible (404) and readable (403) by the caller. */
async function openForRead(ctx: Ctx, nodeId: string, reservationId: string) {
  const node = await readNode(ctx, nodeId);
  const { reservation, relation } = await findVisibleReservation(ctx.db, ctx, node, reservationId, 'none');
  assertMaySeeReclaimSchedules(relation, reservation.id);
  return { node, reservation };
}

/**
 * The scheduled reclaims of a reservation, newest first by `createdAt` then id, cursor-paginated
 * (docs/product.md §5.6, §5 Lists). Those who may reclaim on it may read them.
 * @returns a page of schedules, each with its scheduler org's name for the console (`orgNames`).
 * @throws DomainError not_found (node or reservation), forbidden (the audience), invalid_request (cursor).
 */
export async function listReclaimSchedules({ ctx, input }: { ctx: Ctx; input: ListReclaimSchedulesInput }): Promise<Page<Named<ReclaimScheduleView>>> {
  const { node, reservation } = await openForRead(ctx, input.nodeId, input.reservationId);
  const limit = input.limit ?? 100;
  let after = undefined;
  if (input.cursor) {
    const [ms, id] = decodeCompositeCursor(input.cursor, 2);
    if (!/^\d{1,15}$/.test(ms!)) throw malformedCursor();
    const createdAt = new Date(Number(ms));
    after = sql`(${reclaimSchedules.createdAt}, ${reclaimSchedules.id}) < (${createdAt.toISOString()}::timestamptz, ${id})`;
  }
  const rows = await ctx.db
    .select()
    .from(reclaimSchedules)
    .where(and(eq(reclaimSchedules.nodeId, node.id), eq(reclaimSchedules.reservationId, reservation.id), after))
    .orderBy(desc(reclaimSchedules.createdAt), desc(reclaimSchedules.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => compositeKey(String(r.createdAt.getTime()), r.id),
    // The console names each scheduler's org (docs/product.md §9.1 q); REST answers the schedules alone.
    (kept) =>
      withOrgNames(
        ctx,
        kept.map((r) => toReclaimScheduleView(ctx, r, node.positions)),
        (s) => [s.createdBy.orgId],
      ),
  );
}

/**
 * One scheduled reclaim of a reservation (docs/product.md §5.6).
 * @throws DomainError not_found (node, reservation or schedule), forbidden (the audience).
 */
export async function getReclaimSchedule({ ctx, input }: { ctx: Ctx; input: GetReclaimScheduleInput }): Promise<ReclaimScheduleView> {
  const { node, reservation } = await openForRead(ctx, input.nodeId, input.reservationId);
  const [row] = await ctx.db
    .select()
    .from(reclaimSchedules)
    .where(and(eq(reclaimSchedules.id, input.scheduleId), eq(reclaimSchedules.nodeId, node.id), eq(reclaimSchedules.reservationId, reservation.id)));
  if (!row) throw notFound(`Scheduled reclaim "${input.scheduleId}" of reservation "${reservation.id}"`);
  return toReclaimScheduleView(ctx, row, node.positions);
}
