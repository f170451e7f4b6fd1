import type { DbOrTx, Tx } from '@/db/client';
import { preparedStatement } from '@/db/prepared';
import { nodeUnits, nodes, reclaimSchedules, type TopologyUnit } from '@/db/schema';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { atLockTime, type Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { sortByCodePoint } from '../ids';
import { toDateOrNull } from '../scheduled-reclaims/reclaim-at';

export type NodeRow = typeof nodes.$inferSelect;

/**
 * Row-lock modes, always taken in one order: node, then reservation, then VMs (by id).
 * Writers take the node `FOR NO KEY UPDATE` (`write`), so every change to one node's units is
 * serialised there (a spot placement racing a reclaim queues behind it and then sees the
 * reclaimed units). Readers take none (`none`): a dry run reads one snapshot instead — a single
 * statement, or a read-only transaction (`inReadOnlySnapshot`). NO KEY UPDATE leaves
 * foreign-key checks (FOR KEY SHARE) from other tables unblocked.
 */
export type LockMode = 'write' | 'none';

function findNodeStatement(lock: LockMode) {
  return preparedStatement((db) => {
    // clock_timestamp(), not now(): the time once the lock is held (see Ctx.clock). It is read
    // by an outer query over the locking one: beside `FOR … UPDATE` in one SELECT, PostgreSQL
    // evaluates it as it scans the row, before waiting for the lock, so a writer queued behind
    // another would record a time from before that one's commit (docs/product.md §9 c).
    const lockedAt = sql<Date>`clock_timestamp()`.mapWith((v: string | Date) => new Date(v));
    const q = db
      .select()
      .from(nodes)
      .where(eq(nodes.id, sql.placeholder('nodeId')));
    const row = (lock === 'write' ? q.for('no key update') : q).as('locked_node');
    // The unit order comes with the node (every verb orders unit ids by it): one round trip.
    // Qualified by hand: drizzle prints a one-table select's field columns unqualified.
    const unitOrder = sql<string[]>`array(select nu.unit_id from ${nodeUnits} nu where nu.node_id = "locked_node"."id" order by nu.position)`;
    // The node's next pending scheduled reclaim (docs/product.md §5.6), so a writer learns with
    // no statement of its own whether one is due and must run first (server/scheduled-reclaims/settle.ts).
    const nextReclaimAt =
      sql<Date | null>`(select min(rs.at) from ${reclaimSchedules} rs where rs.node_id = "locked_node"."id" and rs.status = 'pending')`.mapWith(toDateOrNull);
    // A writer's statements after this one, in this transaction only, run on generic plans: each
    // is prepared (db/prepared.ts) and names its rows by key (node, reservation, VM ids), so a
    // plan made once per connection is as good as one made per call, and PostgreSQL otherwise
    // re-plans the reclaim's write (ten CTEs) at every call — 0.4 ms of its CPU each time
    // (issue 26, docs/performance.md). `set_config(…, true)` is SET LOCAL: it ends with the
    // transaction, so reads keep their custom plans (a reader's `none` sets nothing).
    const genericPlans = lock === 'write' ? sql<string>`set_config('plan_cache_mode', 'force_generic_plan', true)` : sql<null>`null`;
    return db
      .select({
        genericPlans,
        id: row.id,
        name: row.name,
        ownerOrgId: row.ownerOrgId,
        topologyGen: row.topologyGen,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        lockedAt,
        unitOrder,
        nextReclaimAt,
      })
      .from(row)
      .prepare(`find_node_${lock}`);
  });
}
const findNodeBy = { write: findNodeStatement('write'), none: findNodeStatement('none') };

/**
 * Finds a node, optionally locking it, with its unit order. Every signed-in principal may see
 * every node (docs/product.md §2).
 * @throws DomainError not_found when there is no such node.
 */
export async function findNode(db: DbOrTx, nodeId: string, lock: LockMode): Promise<LockedNode> {
  const [found] = await findNodeBy[lock](db, { nodeId });
  if (!found) throw notFound(`Node "${nodeId}"`);
  const { unitOrder, genericPlans: _, ...node } = found;
  return { ...node, positions: new Map(unitOrder.map((unitId, position) => [unitId, position])) };
}

/**
 * A node as read verbs see it (no lock): read once per console request when the context
 * carries its reads (a page's queries all start from the same node), else from `ctx.db`.
 * Never from the request's reads inside a transaction: a verb there reads for itself.
 * @throws DomainError not_found when there is no such node.
 */
export function readNode(ctx: Ctx, nodeId: string): Promise<LockedNode> {
  const reads = ctx.reads;
  if (!reads || reads.db !== ctx.db) return findNode(ctx.db, nodeId, 'none');
  return reads.once(`node:${nodeId}`, () => findNode(reads.db, nodeId, 'none'));
}

/**
 * A node row read under its lock, with the clock read once the lock was held and its units'
 * id → rank in the node's unit order (what `loadUnitPositions` answers).
 */
export type LockedNode = NodeRow & {
  lockedAt: Date;
  positions: Map<string, number>;
  /** The earliest `at` of the node's pending scheduled reclaims (docs/product.md §5.6), or null. */
  nextReclaimAt: Date | null;
};

/**
 * The first step of every writer on a node: lock its row (`write`: FOR NO KEY UPDATE; `none`
 * inside a read-only snapshot) and read the clock once the lock is held, so that
 * times follow commit order across instances (Ctx.clock). Lock order, everywhere: node, then
 * reservation, then VMs by id.
 * @returns the node and the verb context continued inside `tx` at lock time.
 * @throws DomainError not_found
 */
export async function lockNode(tx: Tx, ctx: Ctx, nodeId: string, mode: LockMode = 'write'): Promise<{ node: LockedNode; ctx: Ctx }> {
  const node = await findNode(tx, nodeId, mode);
  return { node, ctx: atLockTime({ ...ctx, db: tx }, node.lockedAt) };
}

/**
 * Every id of `unitIds` must name a unit of the node.
 * @throws DomainError unknown_unit naming the others, by code point.
 */
export function requireKnownUnits(node: Pick<NodeRow, 'id'>, positions: ReadonlyMap<string, number>, unitIds: readonly string[]): void {
  const unknown = unitIds.filter((u) => !positions.has(u));
  if (unknown.length === 0) return;
  const ids = sortByCodePoint(unknown);
  throw new DomainError('unknown_unit', `Node "${node.id}" has no units ${ids.join(', ')}.`, { unitIds: ids });
}

/**
 * The 409 state check of `expectedTopologyGen` (docs/product.md §5.4): a caller that reviewed the
 * node's units at one generation acts only while the node is still at it, as reclaim's
 * `expectedTerminate` guards its preview. Checked under the node lock, after 404 and 403.
 * @param expected absent: no check.
 * @throws DomainError topology_changed with the node's current `topologyGen`.
 */
export function assertExpectedTopologyGen(node: Pick<NodeRow, 'id' | 'topologyGen'>, expected: number | undefined): void {
  if (expected === undefined || expected === node.topologyGen) return;
  throw new DomainError(
    'topology_changed',
    `The topology of node "${node.id}" changed since you reviewed it: it is at generation ${node.topologyGen}, not ${expected}. Review its units again, then retry with expectedTopologyGen ${node.topologyGen}.`,
    { topologyGen: node.topologyGen },
  );
}

/** The node's unit id → position map, for ordering unit id lists (docs/product.md §5). */
export async function loadUnitPositions(db: DbOrTx, nodeId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ unitId: nodeUnits.unitId, position: nodeUnits.position })
    .from(nodeUnits)
    .where(eq(nodeUnits.nodeId, nodeId))
    .orderBy(asc(nodeUnits.position));
  return new Map(rows.map((u) => [u.unitId, u.position]));
}

/** `loadUnitPositions` for several nodes in one statement (lists across nodes; no query per row). */
export async function loadUnitPositionsOf(db: DbOrTx, nodeIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
  const byNode = new Map<string, Map<string, number>>(nodeIds.map((id) => [id, new Map()]));
  if (nodeIds.length === 0) return byNode;
  const rows = await db
    .select({ nodeId: nodeUnits.nodeId, unitId: nodeUnits.unitId, position: nodeUnits.position })
    .from(nodeUnits)
    .where(inArray(nodeUnits.nodeId, [...nodeIds]));
  for (const row of rows) byNode.get(row.nodeId)?.set(row.unitId, row.position);
  return byNode;
}

/** The node_units rows of a unit list, positions in list order. */
export function unitRows(nodeId: string, units: readonly TopologyUnit[]) {
  return units.map((u, position) => ({
    nodeId,
    unitId: u.id,
    position,
    model: u.model ?? null,
    memoryGiB: u.memoryGiB ?? null,
    nvlinkDomain: u.nvlinkDomain ?? null,
  }));
}

/** Drops absent optionals so the stored history compares and prints cleanly. */
export function normalise(units: readonly TopologyUnit[]): TopologyUnit[] {
  return units.map((u) => ({
    id: u.id,
    ...(u.model != null ? { model: u.model } : {}),
    ...(u.memoryGiB != null ? { memoryGiB: u.memoryGiB } : {}),
    ...(u.nvlinkDomain != null ? { nvlinkDomain: u.nvlinkDomain } : {}),
  }));
}
