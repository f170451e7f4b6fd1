import { nodes, reservations } from '@/db/schema';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type Ctx } from '../context';
import { loadUnitPositionsOf, readNode } from '../nodes/internal';
import { compositeKey, decodeCompositeCursor, decodeCursor, toPage, type Page } from '../pagination';
import { nameShownOrgs, namesOf, type OrgNames } from '../orgs/internal';
import {
  maySeeReservation,
  offeredReservationActions,
  orgIdsNamedWith,
  relationTo,
  reservationListedFor,
  reservationVisibleTo,
  type ReservationAction,
} from '../policy';
import { loadReservationUnits, loadReservationUnitsAcross } from './internal';
import type { ListNodeReservationsInput, ListReservationsInput } from './schemas';
import { toReservation, type Reservation } from './view';

/**
 * The reservations on a node that the caller may see (docs/product.md §2), by id, paginated, each with
 * the actions the caller may take on it (the console offers only those) and the names of the orgs
 * it names (ids the caller sees: server/policy.ts `orgIdsNamedWith`; REST answers the reservations alone).
 * @returns `{ items: [{ reservation, actions, orgNames }], nextCursor? }`
 * @throws DomainError not_found for an unknown node.
 */
export async function listNodeReservations({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: ListNodeReservationsInput;
}): Promise<{ items: { reservation: Reservation; actions: ReservationAction[]; orgNames: OrgNames }[]; nextCursor?: string }> {
  const node = await readNode(ctx, input.nodeId);
  const limit = input.limit ?? 100;
  const rows = await ctx.db
    .select()
    .from(reservations)
    .where(
      and(
        eq(reservations.nodeId, node.id),
        reservationVisibleTo(ctx, node),
        input.cursor !== undefined ? gt(reservations.id, decodeCursor(input.cursor)) : undefined,
      ),
    )
    .orderBy(asc(reservations.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => r.id,
    async (kept) => {
      const visible = kept.map((r) => ({ r, rel: relationTo(ctx, node, r) })).filter(({ rel }) => maySeeReservation(rel));
      const units = await loadReservationUnits(
        ctx.db,
        node.id,
        visible.map(({ r }) => r.id),
      );
      const positions = node.positions;
      const named = visible.map(({ r, rel }) => orgIdsNamedWith(rel, r, node));
      const names = await nameShownOrgs(ctx, named.flat());
      return visible.map(({ r, rel }, i) => {
        const reservation = toReservation(r, units.get(r.id) ?? [], positions, node.topologyGen, ctx.now);
        return {
          reservation,
          actions: offeredReservationActions(rel, reservation),
          orgNames: namesOf(names, named[i]!),
        };
      });
    },
  );
}

/**
 * The reservations the caller may see on every node (docs/product.md §2 "see a reservation"; §5
 * `GET /v1/reservations`), ordered by (nodeId, id), paginated; never 403 — a list of what the
 * caller may see. `role` narrows it to the acting org's own capacity (`audience`: it is in
 * allowedOrgIds) or to what it manages (`managing`). Three statements whatever the page size:
 * the page, its units, the unit order of its nodes.
 * @param input.role `any` (default) | `audience` | `managing`.
 * @param input.since, input.until the window (§5.8): only reservations whose period meets it. An export pages through this very verb.
 * @returns `{ items: Reservation[], nextCursor? }`, statuses at `ctx.now` (§4).
 * @throws DomainError invalid_request for a cursor this API did not hand out.
 */
export async function listReservations({ ctx, input }: { ctx: Ctx; input: ListReservationsInput }): Promise<Page<Reservation>> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? (decodeCompositeCursor(input.cursor, 2) as [string, string]) : undefined;
  // The node's topologyGen by key lookup per row of the page, not a join: with a join the
  // planner hashes the whole nodes table for a page of 101 rows.
  const nodeTopologyGen = sql<number>`(select n.topology_gen from ${nodes} n where n.id = ${reservations.nodeId})`;
  // The window (docs/product.md §5.8): a reservation whose period [startsAt, endsAt or never) meets [since, until).
  const { since, until } = input;
  const periodMeets = (alias: string) =>
    since || until
      ? and(
          since ? sql`(${sql.raw(alias)}.ends_at is null or ${sql.raw(alias)}.ends_at > ${since.toISOString()}::timestamptz)` : undefined,
          until ? sql`${sql.raw(alias)}.starts_at < ${until.toISOString()}::timestamptz` : undefined,
        )
      : undefined;
  const rows = await ctx.db
    .select({ r: reservations, nodeTopologyGen })
    .from(reservations)
    .where(
      and(
        reservationListedFor(ctx, input.role ?? 'any', after, limit + 1, periodMeets),
        periodMeets('reservations'),
        after ? sql`(${reservations.nodeId}, ${reservations.id}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(reservations.nodeId), asc(reservations.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    ({ r }) => compositeKey(r.nodeId, r.id),
    async (kept) => {
      const [units, positions] = await Promise.all([
        loadReservationUnitsAcross(
          ctx.db,
          kept.map(({ r }) => r),
        ),
        loadUnitPositionsOf(ctx.db, [...new Set(kept.map(({ r }) => r.nodeId))]),
      ]);
      return kept.map(({ r, nodeTopologyGen }) =>
        toReservation(r, units.get(compositeKey(r.nodeId, r.id)) ?? [], positions.get(r.nodeId) ?? new Map(), nodeTopologyGen, ctx.now),
      );
    },
  );
}
