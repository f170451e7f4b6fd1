import { nodes } from '@/db/schema';
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { DomainError } from '../errors';
import { NODE_COUNT_CAP, readNodeRows } from '../nodes/list';
import { toPage, type Page } from '../pagination';
import { aliasedReservationVisibleTo } from '../policy';
import { laterBy } from '../timestamp';
import { DEFAULT_CALENDAR_DAYS, MAX_CALENDAR_DAYS, type ReservationCalendarInput } from './schemas';
import type { ReservationStatus } from './status';
import { reservationStatus } from './view';

/** A span of a reservation's units on the spot market (`unit_intervals` kind `released`), as many units as shared it. */
export type CalendarReleasedSpan = { startsAt: string; endsAt?: string; units: number };

/** One bar of the calendar: a reservation the caller may see, as much as a Gantt bar needs. */
export type CalendarReservation = {
  id: string;
  status: ReservationStatus;
  /** How many units it holds (its reservedUnitIds). */
  units: number;
  startsAt: string;
  /** Absent: open-ended. */
  endsAt?: string;
  /** Its audience (allowedOrgIds), with names: the customer. */
  audience: { id: string; name: string }[];
  managingOrgIds: string[];
  /** Where its units were released within the window, grouped by span. */
  released: CalendarReleasedSpan[];
};

/** One row of the calendar: a node and its bars; `truncated` when more met the window than one row answers. */
export type CalendarNode = { id: string; name: string; ownerOrgId: string; ownerName: string; reservations: CalendarReservation[]; truncated?: true };

/**
 * The most bars one node's row answers, and released spans one bar does (the earliest of each):
 * a page's cost is bound by its nodes times these, whatever a node's history (a reservation
 * released and reclaimed every minute gathers thousands of spans).
 */
export const MAX_CALENDAR_BARS = 200;
export const MAX_CALENDAR_SPANS = 200;

/** A page of the calendar: the window it shows, the nodes (paged like the fleet) and how many match. */
export type ReservationCalendarPage = Page<CalendarNode> & { from: string; to: string; total: number; totalCapped: boolean };

type Row = {
  id: string;
  name: string;
  owner_org_id: string;
  owner_name: string;
  topology_gen: number;
  reservations: {
    id: string;
    startsAt: string;
    endsAt: string | null;
    topologyGen: number;
    units: number;
    managing: string[];
    audience: { id: string; name: string }[] | null;
    released: { startsAt: string; endsAt: string | null; units: number }[] | null;
  }[];
};

// json_build_object renders timestamptz in the session's zone; the API speaks ISO 8601 UTC.
const iso = (t: string) => new Date(t).toISOString();
const at = (t: Date) => sql`${t.toISOString()}::timestamptz`;

/**
 * The page's nodes with the bars of their window, in one statement: per node (nodes_pkey), its
 * reservations meeting `[from, to)` that are not cancelled and the caller may see (the
 * reservations' primary key `(node_id, id)`), each with its unit count (reservation_units'
 * primary key), its audience's names and its released spans (unit_intervals_reservation_idx).
 */
async function readCalendarRows(ctx: Ctx, ids: string[], from: Date, to: Date): Promise<Row[]> {
  if (ids.length === 0) return [];
  // §2: the operator sees every reservation; others the ones on nodes they own, manage or are the audience of.
  const visible = aliasedReservationVisibleTo(ctx) ?? sql`true`;
  const rows = await ctx.db.execute(sql`
    select ${nodes.id} as id, ${nodes.name} as name, ${nodes.ownerOrgId} as owner_org_id, o.name as owner_name, ${nodes.topologyGen} as topology_gen,
      coalesce((
        select json_agg(json_build_object(
          'id', r.id, 'startsAt', r.starts_at, 'endsAt', r.ends_at, 'topologyGen', r.topology_gen, 'managing', r.managing_org_ids,
          'units', (select count(*) from reservation_units ru where ru.node_id = r.node_id and ru.reservation_id = r.id),
          'audience', (select json_agg(json_build_object('id', a.id, 'name', a.name) order by a.id) from orgs a where a.id = any(r.allowed_org_ids)),
          'released', (
            select json_agg(json_build_object('startsAt', s.starts_at, 'endsAt', s.ends_at, 'units', s.n) order by s.starts_at, s.ends_at)
            from (
              select ui.starts_at, ui.ends_at, count(*)::int as n from unit_intervals ui
              where ui.node_id = r.node_id and ui.reservation_id = r.id and ui.kind = 'released'
                and ui.starts_at < ${at(to)} and (ui.ends_at is null or ui.ends_at > ${at(from)})
              group by ui.starts_at, ui.ends_at
              order by ui.starts_at, ui.ends_at
              limit ${MAX_CALENDAR_SPANS + 1}
            ) s
          )
        ) order by r.starts_at, r.id)
        from (
          select r.* from reservations r
          where r.node_id = ${nodes.id} and r.cancelled_at is null
            and r.starts_at < ${at(to)} and (r.ends_at is null or r.ends_at > ${at(from)})
            and ${visible}
          order by r.starts_at, r.id
          limit ${MAX_CALENDAR_BARS + 1}
        ) r
      ), '[]'::json) as reservations
    from ${nodes} join orgs o on o.id = ${nodes.ownerOrgId}
    where ${nodes.id} in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
  `);
  return rows as unknown as Row[];
}

/**
 * The window must be `[from, to)` with `from` before `to` and at most MAX_CALENDAR_DAYS long, so
 * that one page's cost stays bound (docs/product.md §5.8 "Fleet calendar").
 * @throws DomainError invalid_request naming `query.to`.
 */
function assertCalendarWindow(from: Date, to: Date): void {
  const span = to.getTime() - from.getTime();
  const refuse = (message: string, detail: string) => new DomainError('invalid_request', detail, { errors: [{ path: 'query.to', message }] });
  if (span <= 0) throw refuse('must be after from', 'The calendar window is empty: to must be after from.');
  if (span > MAX_CALENDAR_DAYS * 86_400_000)
    throw refuse(
      `must be at most ${MAX_CALENDAR_DAYS} days after from`,
      `The calendar shows at most ${MAX_CALENDAR_DAYS} days; choose a to at most ${MAX_CALENDAR_DAYS} days after from.`,
    );
}

/**
 * The fleet reservation calendar (docs/product.md §5.8 "Fleet calendar"): the nodes the fleet
 * list would page for the same filters, sort and cursor (every node is visible, §2), each with
 * the reservations meeting the window `[from, to)` that the caller may see (§2 "see a
 * reservation": the operator, the node owner, managing and audience orgs) — never cancelled ones;
 * expired ones that fall in the window show. Three statements per page whatever its size (the
 * nodes, their capped count, the bars; a fourth reads back a non-default sort's cursor).
 * @param input.from, input.to the window, `from < to`, at most 31 days (else 400 naming `to`); default: the week from `ctx.now`.
 * @param input.limit, input.cursor, and the fleet's filters and sort (`ListNodesInput`).
 * @returns `{ from, to, items: [{ id, name, ownerOrgId, ownerName, reservations }], nextCursor?, total, totalCapped }`,
 *   statuses at `ctx.now` (§4).
 * @throws DomainError invalid_request for a window that is empty or longer than 31 days (naming `query.to`), or a cursor of another sort or not from this API.
 */
export async function listReservationCalendar({ ctx, input }: { ctx: Ctx; input: ReservationCalendarInput }): Promise<ReservationCalendarPage> {
  const { from = ctx.now, to = laterBy(from, DEFAULT_CALENDAR_DAYS * 86_400_000), ...list } = input;
  assertCalendarWindow(from, to);
  const { rows, limit, count, keyOf } = await readNodeRows(ctx, list);
  const page = await toPage(rows, limit, keyOf, async (kept) => {
    const byId = new Map(
      (
        await readCalendarRows(
          ctx,
          kept.map((n) => n.id),
          from,
          to,
        )
      ).map((r) => [r.id, r]),
    );
    return kept.map((n): CalendarNode => {
      const row = byId.get(n.id);
      const bars = row?.reservations ?? [];
      let truncated = bars.length > MAX_CALENDAR_BARS;
      const reservations = bars.slice(0, MAX_CALENDAR_BARS).map((r): CalendarReservation => {
        const spans = r.released ?? [];
        if (spans.length > MAX_CALENDAR_SPANS) truncated = true;
        const startsAt = new Date(r.startsAt);
        const endsAt = r.endsAt ? new Date(r.endsAt) : null;
        return {
          id: r.id,
          status: reservationStatus({ cancelledAt: null, startsAt, endsAt, topologyGen: r.topologyGen }, n.topologyGen, ctx.now),
          units: Number(r.units),
          startsAt: startsAt.toISOString(),
          ...(endsAt ? { endsAt: endsAt.toISOString() } : {}),
          audience: r.audience ?? [],
          managingOrgIds: r.managing,
          released: spans
            .slice(0, MAX_CALENDAR_SPANS)
            .map((s) => ({ startsAt: iso(s.startsAt), ...(s.endsAt ? { endsAt: iso(s.endsAt) } : {}), units: s.units })),
        };
      });
      return {
        id: n.id,
        name: n.name,
        ownerOrgId: n.ownerOrgId,
        ownerName: row?.owner_name ?? n.ownerOrgId,
        reservations,
        ...(truncated ? { truncated: true as const } : {}),
      };
    });
  });
  return { ...page, from: from.toISOString(), to: to.toISOString(), total: Math.min(count, NODE_COUNT_CAP), totalCapped: count > NODE_COUNT_CAP };
}
