import { nodeTopologies, reclaimSchedules, reservations, unitIntervals, vms, type VmTier, type UnitIntervalEnd, type UnitIntervalKind } from '@/db/schema';
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { DomainError } from '../errors';
import { withOrgNames, type Named } from '../orgs/internal';
import { intervalReservationVisibleTo, maySeeVmOrg, orgIdsNamedWith, orgIdsNamedWithNode, reclaimSchedulesVisibleTo, relationTo, vmVisibleTo } from '../policy';
import type { ReservationStatus } from '../reservations/status';
import { reservationStatus } from '../reservations/view';
import { readNode } from './internal';
import { MAX_TIMELINE_DAYS, type GetNodeTimelineInput } from './schemas';
import { laterBy } from '../timestamp';
import type { UnitState } from './unit-states';
import { toNodeViews } from './view';

const DAY_MS = 86_400_000;
/** The most intervals one read answers: a month of a 64-unit node churning every hour is ~46,000; a page past this says `truncated`. */
export const MAX_TIMELINE_ITEMS = 5_000;

/** One interval of the record (docs/product.md §5.8) as a reader may see it. */
export type TimelineItem = {
  unitId: string;
  kind: UnitIntervalKind;
  startsAt: string;
  /** Null: no end known (a VM still running, an open-ended reservation). While `open`, the plan. */
  endsAt: string | null;
  open: boolean;
  endedBy: UnitIntervalEnd | null;
  /** The reservation of the row, or on a `vm` row the one whose capacity it used — only where the caller may see that reservation. */
  reservationId?: string;
  vmId?: string;
};

/** What a reservation the caller may see says on hover: its status now and its orgs. */
export type TimelineReservation = {
  id: string;
  status: ReservationStatus;
  allowedOrgIds: string[];
  managingOrgIds: string[];
  contractRef: string | null;
  startsAt: string;
  endsAt: string | null;
};

/** What a VM the caller may see says on hover; `orgId` only to the operator and the VM's own org (§2). */
export type TimelineVm = { id: string; tier: VmTier; status: 'running' | 'terminated'; orgId?: string };

/** A point on the node's time line. */
export type TimelineEvent =
  | { kind: 'reclaim'; at: string; unitIds: string[]; reservationId?: string }
  | { kind: 'scheduled-reclaim'; at: string; unitIds: string[]; reservationId: string; scheduleId: string }
  | { kind: 'topology'; at: string; gen: number };

export type NodeTimeline = {
  nodeId: string;
  from: string;
  to: string;
  /** The clock the read used: where the console draws "now". */
  now: string;
  /** Every unit, in the node's order, with its state now (docs/product.md §3: what every signed-in principal sees). */
  units: { id: string; state: UnitState }[];
  items: TimelineItem[];
  /** More than MAX_TIMELINE_ITEMS rows met the window: `items` holds the earliest. */
  truncated: boolean;
  reservations: TimelineReservation[];
  vms: TimelineVm[];
  events: TimelineEvent[];
};

function refused(field: 'from' | 'to', message: string, detail: string): DomainError {
  return new DomainError('invalid_request', detail, { errors: [{ path: `query.${field}`, message }] });
}

/**
 * The window `[from, to)` a timeline read covers: the input's, or around now (docs/product.md §5.8).
 * @throws DomainError invalid_request naming `query.to` when it is not after `from` or more than 31 days after it.
 */
export function timelineWindow(input: Pick<GetNodeTimelineInput, 'from' | 'to'>, now: Date): { from: Date; to: Date } {
  const from = input.from ?? (input.to ? new Date(input.to.getTime() - 14 * DAY_MS) : new Date(now.getTime() - 7 * DAY_MS));
  const to = input.to ?? (input.from ? laterBy(input.from, 14 * DAY_MS) : laterBy(now, 7 * DAY_MS));
  if (to.getTime() <= from.getTime()) throw refused('to', 'must be after from', 'The timeline window is empty: to must be after from.');
  if (to.getTime() - from.getTime() > MAX_TIMELINE_DAYS * DAY_MS)
    throw refused(
      'to',
      `must be at most ${MAX_TIMELINE_DAYS} days after from`,
      `A timeline covers at most ${MAX_TIMELINE_DAYS} days; choose a to at most ${MAX_TIMELINE_DAYS} days after from.`,
    );
  return { from, to };
}

/**
 * The statement reading the intervals of `node` that meet `[from, to)` and the caller may see
 * (docs/product.md §2, §5.8), earliest first, one past MAX_TIMELINE_ITEMS. Its own function so
 * the test can EXPLAIN it.
 */
export function timelineItemsQuery(ctx: Ctx, node: { id: string; ownerOrgId: string }, from: Date, to: Date) {
  const seesReservation = intervalReservationVisibleTo(ctx, node) ?? sql`true`;
  const seesVm = vmVisibleTo(ctx, ctx.now) ?? sql`true`;
  const fromAt = sql`${from.toISOString()}::timestamptz`;
  const toAt = sql`${to.toISOString()}::timestamptz`;

  // Rows meeting the window: unit_intervals_node_idx (node_id, starts_at) bounds the scan by the
  // window's end; the end filter drops what ended before it began.
  return ctx.db
    .select({
      unitId: unitIntervals.unitId,
      kind: unitIntervals.kind,
      startsAt: unitIntervals.startsAt,
      endsAt: unitIntervals.endsAt,
      open: unitIntervals.open,
      endedBy: unitIntervals.endedBy,
      vmId: unitIntervals.vmId,
      reservationId: sql<string | null>`case when ${seesReservation} then ${unitIntervals.reservationId} end`,
    })
    .from(unitIntervals)
    .leftJoin(reservations, and(eq(reservations.nodeId, unitIntervals.nodeId), eq(reservations.id, unitIntervals.reservationId)))
    .leftJoin(vms, eq(vms.id, unitIntervals.vmId))
    .where(
      and(
        eq(unitIntervals.nodeId, node.id),
        lt(unitIntervals.startsAt, toAt),
        sql`(${unitIntervals.endsAt} is null or ${unitIntervals.endsAt} > ${fromAt})`,
        sql`case when ${unitIntervals.kind} = 'vm' then ${seesVm} else ${seesReservation} end`,
      ),
    )
    .orderBy(asc(unitIntervals.startsAt), asc(unitIntervals.id))
    .limit(MAX_TIMELINE_ITEMS + 1);
}

/**
 * A node's capacity timeline (docs/product.md §5.8 Node timeline): its units with their states
 * now, the intervals of the record that meet `[from, to)` — reserved (pending ones ahead too),
 * released, VM and needs-review rows — and the point events: reclaims (rows a reclaim cut),
 * scheduled reclaims pending in the window, topology changes.
 *
 * Visibility, in SQL (§2, §5.8): a reservation's rows only to those who may see the reservation;
 * a VM's rows only to those who may see the VM (`vmVisibleTo`: a spot tenant its own), its
 * `reservationId` only where that reservation shows; scheduled reclaims only to those who may
 * read them (§5.6: operator, node owner, managing org); everyone else sees the units' states
 * now and the topology changes, like the grid. With the names of the orgs it shows (§9.1 q).
 * @param input `nodeId`, and the window: `from`/`to` ISO 8601 UTC (default: 7 days either side of now).
 * @returns NodeTimeline, items ordered by start then unit, at most MAX_TIMELINE_ITEMS.
 * @throws DomainError not_found (no such node), invalid_request (the window: `query.to` not after `from`, or over 31 days).
 */
export async function getNodeTimeline({ ctx, input }: { ctx: Ctx; input: GetNodeTimelineInput }): Promise<Named<NodeTimeline>> {
  const node = await readNode(ctx, input.nodeId);
  const { from, to } = timelineWindow(input, ctx.now);
  const itemsQuery = timelineItemsQuery(ctx, node, from, to);

  const schedulesVisible = reclaimSchedulesVisibleTo(ctx, node);
  const schedulesQuery = ctx.db
    .select({ id: reclaimSchedules.id, reservationId: reclaimSchedules.reservationId, unitIds: reclaimSchedules.unitIds, at: reclaimSchedules.at })
    .from(reclaimSchedules)
    .innerJoin(reservations, and(eq(reservations.nodeId, reclaimSchedules.nodeId), eq(reservations.id, reclaimSchedules.reservationId)))
    .where(
      and(
        eq(reclaimSchedules.nodeId, node.id),
        eq(reclaimSchedules.status, 'pending'),
        gte(reclaimSchedules.at, from),
        lt(reclaimSchedules.at, to),
        schedulesVisible,
      ),
    )
    .orderBy(asc(reclaimSchedules.at));

  // Generation 1 is the registration, not a change.
  const topologyQuery = ctx.db
    .select({ gen: nodeTopologies.gen, at: nodeTopologies.createdAt })
    .from(nodeTopologies)
    .where(and(eq(nodeTopologies.nodeId, node.id), gt(nodeTopologies.gen, 1), gte(nodeTopologies.createdAt, from), lt(nodeTopologies.createdAt, to)))
    .orderBy(asc(nodeTopologies.gen));

  const [rows, schedules, generations, [view]] = await Promise.all([itemsQuery, schedulesQuery, topologyQuery, toNodeViews(ctx, [node])]);
  const truncated = rows.length > MAX_TIMELINE_ITEMS;
  const items: TimelineItem[] = rows.slice(0, MAX_TIMELINE_ITEMS).map((r) => ({
    unitId: r.unitId,
    kind: r.kind,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt ? r.endsAt.toISOString() : null,
    open: r.open,
    endedBy: r.endedBy,
    ...(r.reservationId ? { reservationId: r.reservationId } : {}),
    ...(r.vmId ? { vmId: r.vmId } : {}),
  }));

  // The hover details of what the rows name: only ids the visibility above let through.
  const reservationIds = [...new Set(items.flatMap((i) => (i.reservationId ? [i.reservationId] : [])))];
  const vmIds = [...new Set(items.flatMap((i) => (i.vmId ? [i.vmId] : [])))];
  const [reservationRows, vmRows] = await Promise.all([
    reservationIds.length
      ? ctx.db
          .select()
          .from(reservations)
          .where(and(eq(reservations.nodeId, node.id), inArray(reservations.id, reservationIds)))
      : [],
    vmIds.length ? ctx.db.select({ id: vms.id, tier: vms.tier, status: vms.status, orgId: vms.orgId }).from(vms).where(inArray(vms.id, vmIds)) : [],
  ]);
  const shownReservations: TimelineReservation[] = reservationRows
    .map((r) => ({
      id: r.id,
      status: reservationStatus(r, node.topologyGen, ctx.now),
      allowedOrgIds: r.allowedOrgIds,
      managingOrgIds: r.managingOrgIds,
      contractRef: r.contractRef,
      startsAt: r.startsAt.toISOString(),
      endsAt: r.endsAt ? r.endsAt.toISOString() : null,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const shownVms: TimelineVm[] = vmRows
    .map((v) => ({ id: v.id, tier: v.tier, status: v.status, ...(maySeeVmOrg(ctx, v) ? { orgId: v.orgId } : {}) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const events: TimelineEvent[] = [
    ...reclaimEvents(items, from, to, node.positions),
    ...schedules.map((s) => ({
      kind: 'scheduled-reclaim' as const,
      at: s.at.toISOString(),
      unitIds: s.unitIds,
      reservationId: s.reservationId,
      scheduleId: s.id,
    })),
    ...generations.map((g) => ({ kind: 'topology' as const, at: g.at.toISOString(), gen: g.gen })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

  const orgIds = [
    ...new Set([
      ...orgIdsNamedWithNode(node),
      ...reservationRows.flatMap((r) => orgIdsNamedWith(relationTo(ctx, node, r), r, node)),
      ...shownVms.flatMap((v) => (v.orgId ? [v.orgId] : [])),
    ]),
  ];
  const [named] = await withOrgNames(
    ctx,
    [
      {
        nodeId: node.id,
        from: from.toISOString(),
        to: to.toISOString(),
        now: ctx.now.toISOString(),
        units: view!.units.map((u) => ({ id: u.id, state: u.state })),
        items,
        truncated,
        reservations: shownReservations,
        vms: shownVms,
        events,
      },
    ],
    () => orgIds,
  );
  return named!;
}

/**
 * The reclaims the caller's rows show: rows a reclaim cut, one event per instant and reservation
 * (a VM's row names the reservation only where it shows), cuts inside the window only.
 */
function reclaimEvents(items: readonly TimelineItem[], from: Date, to: Date, positions: ReadonlyMap<string, number>): TimelineEvent[] {
  const byKey = new Map<string, { kind: 'reclaim'; at: string; unitIds: string[]; reservationId?: string }>();
  for (const i of items) {
    if (i.endedBy !== 'reclaim' || !i.endsAt || i.endsAt < from.toISOString() || i.endsAt >= to.toISOString()) continue;
    const key = `${i.endsAt} ${i.reservationId ?? ''}`;
    const event = byKey.get(key) ?? { kind: 'reclaim' as const, at: i.endsAt, unitIds: [], ...(i.reservationId ? { reservationId: i.reservationId } : {}) };
    if (!event.unitIds.includes(i.unitId)) event.unitIds.push(i.unitId);
    byKey.set(key, event);
  }
  const rank = (u: string) => positions.get(u) ?? Number.MAX_SAFE_INTEGER;
  return [...byKey.values()].map((e) => ({ ...e, unitIds: e.unitIds.sort((a, b) => rank(a) - rank(b)) }));
}
