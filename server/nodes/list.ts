import { nodes, orgs, reservations } from '@/db/schema';
import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context';
import { withOrgNames, type Named } from '../orgs/internal';
import { likeContaining } from '../orgs/search';
import { compositeKey, decodeCompositeCursor, decodeCursor, malformedCursor, toPage } from '../pagination';
import { actingOrgStanding, aliasedReservationNames, aliasedReservationVisibleTo, mayStandToReservationsOn, nodeOwnedBy, orgIdsNamedWithNode } from '../policy';
import type { ListNodesInput, NodeRelation, NodeSortKey } from './schemas';
import { type NodeView, toNodeViews } from './view';

/**
 * How far the list counts its matches: exact up to this, "more" beyond (docs/product.md §5
 * Lists, docs/performance.md). An exact count of a broad filter reads every matching row, which
 * grows with the fleet; counting at most one row past the cap keeps each request's cost bound.
 */
export const NODE_COUNT_CAP = 1000;

/** A node as the fleet lists it: how the acting org stands to it (console only, like `orgNames`). */
export type ListedNode = Named<NodeView> & { relations: NodeRelation[] };

/** A page of the node list, with how many nodes match (`total`, at most NODE_COUNT_CAP; `totalCapped`: more match). */
export type NodeListPage = { items: ListedNode[]; nextCursor?: string; total: number; totalCapped: boolean };

const sortColumns = { id: nodes.id, name: nodes.name, owner: nodes.ownerOrgId, createdAt: nodes.createdAt } as const;

// A raw fragment's parameter: postgres.js binds strings, not Dates.
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** SQL: a non-cancelled, unexpired reservation on the listed node, meeting `cond`. */
function reservationOnNode(now: Date, cond: SQL | undefined, perNode = false): SQL {
  // `perNode`: OFFSET 0 keeps the subquery a per-node probe of the reservations' primary key
  // rather than a semi-join over every live reservation (the planner's pick, 7 ms at 10,000 nodes).
  return sql`exists (select 1 from ${reservations} r where r.node_id = ${nodes.id} and r.cancelled_at is null
    and (r.ends_at is null or r.ends_at > ${at(now)}) and ${cond ?? sql`true`}${perNode ? sql` offset 0` : sql``})`;
}

/** SQL: the listed node stands to the acting org as `relation`. */
function relationFilter(ctx: Ctx, relation: NodeRelation): SQL {
  if (relation === 'owns') return nodeOwnedBy(ctx);
  return reservationOnNode(ctx.now, aliasedReservationNames(ctx, relation === 'manages' ? 'managing' : 'audience'));
}

/**
 * SQL: the listed node has a needs-review reservation (docs/product.md §4) the caller may see
 * (§2: the operator, the node's owner, its audience and managing orgs) — a reservation the caller
 * may not see must not be learnt of through the filter.
 */
function needsReviewFilter(ctx: Ctx): SQL {
  // Implied (a reservation's generation is at least 1), and said so that nodes_topology_changed_idx narrows the scan.
  const changed = sql`${nodes.topologyGen} > 1`;
  // Before each node's reservations are read: whether the caller may see any of them at all.
  return and(
    changed,
    mayStandToReservationsOn(ctx),
    reservationOnNode(ctx.now, and(sql`r.topology_gen < ${nodes.topologyGen}`, aliasedReservationVisibleTo(ctx)), true),
  )!;
}

/**
 * SQL: a unit of the listed node is released now (state released or spot-occupied, docs/product.md
 * §3): a released hold covering `now` of a reservation at the node's generation (an older one's
 * units are withheld). Unit states are every principal's to see, so nothing is narrowed here.
 */
function hasReleasedFilter(now: Date): SQL {
  // The generation check only where the node's topology changed (at generation 1 no hold is
  // older): so the released holds (their partial index) are read without hashing every reservation.
  return sql`exists (select 1 from reservation_units ru where ru.node_id = ${nodes.id} and ru.released and not ru.cancelled
    and ru.starts_at <= ${at(now)} and (ru.ends_at is null or ru.ends_at > ${at(now)})
    and (${nodes.topologyGen} = 1 or exists (select 1 from ${reservations} r where r.node_id = ru.node_id and r.id = ru.reservation_id and r.topology_gen >= ${nodes.topologyGen})))`;
}

/** The conditions of the list's filters (all but the cursor). */
function filtersOf(ctx: Ctx, input: ListNodesInput): SQL | undefined {
  const owner = input.owner?.trim();
  const q = input.q?.trim();
  const flag = (value: 'true' | 'false' | undefined, cond: () => SQL) => (value === undefined ? undefined : value === 'true' ? cond() : sql`not ${cond()}`);
  return and(
    input.ownerOrgId ? eq(nodes.ownerOrgId, input.ownerOrgId) : undefined,
    // An owner's name shows with its node to every signed-in principal (§9.1 q), so matching it tells nothing new.
    owner
      ? or(
          eq(nodes.ownerOrgId, owner),
          inArray(
            nodes.ownerOrgId,
            ctx.db
              .select({ id: orgs.id })
              .from(orgs)
              .where(sql`${orgs.name} ilike ${likeContaining(owner)}`),
          ),
        )
      : undefined,
    // Served by the trigram indexes of migration 0013.
    q ? or(sql`${nodes.name} ilike ${likeContaining(q)}`, sql`${nodes.id} ilike ${likeContaining(q)}`) : undefined,
    input.relation ? relationFilter(ctx, input.relation) : undefined,
    flag(input.hasReleased, () => hasReleasedFilter(ctx.now)),
    flag(input.needsReview, () => needsReviewFilter(ctx)),
  );
}

const sortTag = (sort: NodeSortKey, order: 'asc' | 'desc') => `${sort}.${order}`;

/**
 * Where a page resumes: after the node the cursor names, in the list's order. The default order
 * (by id, ascending) keeps the first cursor's form (the last id); any other names its sort and
 * the last node, whose sort value is read back here — so a cursor carries no value of its own, and
 * one from another sort is refused (400) rather than paging from a meaningless place.
 * @throws DomainError invalid_request for a cursor this API did not hand out for this sort, or naming no node.
 */
async function afterCursor(ctx: Ctx, cursor: string, sort: NodeSortKey, order: 'asc' | 'desc'): Promise<SQL> {
  const past = order === 'asc' ? gt : lt;
  if (sort === 'id' && order === 'asc') return gt(nodes.id, decodeCursor(cursor));
  const [tag, nodeId] = decodeCompositeCursor(cursor, 2) as [string, string];
  if (tag !== sortTag(sort, order)) throw malformedCursor();
  if (sort === 'id') return past(nodes.id, nodeId);
  const column = sortColumns[sort];
  // Every node is visible to every principal (docs/product.md §2), so the named one is looked up unfiltered.
  const [row] = await ctx.db.select({ value: column }).from(nodes).where(eq(nodes.id, nodeId));
  if (!row) throw malformedCursor();
  return or(past(column, row.value), and(eq(column, row.value), past(nodes.id, nodeId)))!;
}

/** How the acting org stands to each of `page`'s nodes: one statement for the page. */
async function relationsOf(ctx: Ctx, page: readonly { id: string; ownerOrgId: string }[]): Promise<Map<string, NodeRelation[]>> {
  const ids = page.map((n) => n.id);
  // Asked for the console's badges only, as the names are (REST answers the Node objects alone).
  const standing = actingOrgStanding(ctx);
  const rows =
    ids.length === 0 || ctx.via !== 'console'
      ? []
      : await ctx.db
          .select({
            nodeId: reservations.nodeId,
            manages: standing.manages,
            uses: standing.uses,
          })
          .from(reservations)
          .where(
            and(
              inArray(reservations.nodeId, ids),
              sql`${reservations.cancelledAt} is null`,
              sql`(${reservations.endsAt} is null or ${reservations.endsAt} > ${at(ctx.now)})`,
              standing.either,
            ),
          )
          .groupBy(reservations.nodeId);
  const byNode = new Map(rows.map((r) => [r.nodeId, r]));
  return new Map(
    page.map((n) => {
      const r = byNode.get(n.id);
      const relations: NodeRelation[] = [
        ...(n.ownerOrgId === ctx.orgId ? ['owns' as const] : []),
        ...(r?.manages ? ['manages' as const] : []),
        ...(r?.uses ? ['uses' as const] : []),
      ];
      return [n.id, relations];
    }),
  );
}

/** One page of the node list's rows, before any view is built: what the fleet and the reservation calendar share. */
export type NodeRowsPage = { rows: (typeof nodes.$inferSelect)[]; limit: number; count: number; keyOf: (n: { id: string }) => string };

/**
 * The node list's filters, sort and keyset cursor as two statements (the page, one row past it,
 * and the capped count; a third reads a non-default sort's cursor back): shared by `listNodes`
 * and the reservation calendar (server/reservations/calendar.ts), which pages the same nodes.
 * @throws DomainError invalid_request for a cursor of another sort or not from this API.
 */
export async function readNodeRows(ctx: Ctx, input: ListNodesInput): Promise<NodeRowsPage> {
  const limit = input.limit ?? 100;
  const sort = input.sort ?? 'id';
  const order = input.order ?? 'asc';
  const filters = filtersOf(ctx, input);
  const after = input.cursor !== undefined ? await afterCursor(ctx, input.cursor, sort, order) : undefined;
  const by = order === 'asc' ? asc : desc;
  const pageOrder = sort === 'id' ? [by(nodes.id)] : [by(sortColumns[sort]), by(nodes.id)];
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select()
      .from(nodes)
      .where(and(after, filters))
      .orderBy(...pageOrder)
      .limit(limit + 1),
    // One row past the cap says "more", without reading every match. In the page's order, so
    // the count reads as the page does, at most ten pages on: unordered, PostgreSQL may pick a
    // plan whose start-up cost is the fleet's (a hash of every node for `hasReleased`: 25 ms at
    // 100,000 nodes against 14 ms walking nodes_pkey, docs/performance.md).
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(
      ctx.db
        .select({ one: sql`1` })
        .from(nodes)
        .where(filters)
        .orderBy(...pageOrder)
        .limit(NODE_COUNT_CAP + 1)
        .as('matches'),
    ),
  ]);
  const keyOf = (n: { id: string }) => (sort === 'id' && order === 'asc' ? n.id : compositeKey(sortTag(sort, order), n.id));
  return { rows, limit, count: counted?.n ?? 0, keyOf };
}

/**
 * The nodes visible to the caller (all of them, docs/product.md §2), filtered, sorted by a stored
 * column and keyset-paginated (docs/product.md §5 Lists).
 * @param input.limit 1–500, default 100. @param input.cursor from a previous page of the same sort.
 * @param input.ownerOrgId only nodes this org owns. @param input.owner an owner's id, or part of its name.
 * @param input.q part of the node's id or name. @param input.sort `id` (default), `name`, `owner`, `createdAt`; `order` asc (default) or desc.
 * @param input.relation `owns`, `manages`, `uses`: how the acting org stands to the node.
 * @param input.hasReleased, input.needsReview `'true'`/`'false'`.
 * @returns `{ items, nextCursor?, total, totalCapped }`: each item with its owner's name (`orgNames`,
 *   docs/product.md §9.1 q) and the acting org's `relations` to it (the console's; REST answers Nodes);
 *   `total` counts the matches up to NODE_COUNT_CAP, `totalCapped` says more match.
 * @throws DomainError invalid_request for a cursor of another sort or not from this API.
 */
export async function listNodes({ ctx, input }: { ctx: Ctx; input: ListNodesInput }): Promise<NodeListPage> {
  const { rows, limit, count, keyOf } = await readNodeRows(ctx, input);
  const page = await toPage(rows, limit, keyOf, async (kept) => {
    const [named, relations] = await Promise.all([withOrgNames(ctx, await toNodeViews(ctx, kept), orgIdsNamedWithNode), relationsOf(ctx, kept)]);
    return named.map((n) => ({ ...n, relations: relations.get(n.id) ?? [] }));
  });
  return { ...page, total: Math.min(count, NODE_COUNT_CAP), totalCapped: count > NODE_COUNT_CAP };
}
