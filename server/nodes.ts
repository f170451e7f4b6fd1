import { and, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { nodes } from '@/db/schema';
import { findNode, type NodeRow } from './access';
import type { Ctx } from './context';
import { Id } from './ids';
import { Limit, LimitNumber, decodeCursor, toPage } from './pagination';
import { computeUnitViews, countUnitStates, loadUnitInputs, type UnitState, type UnitView } from './unit-states';

/** The Node object (SPEC §5 Objects). */
export type NodeView = {
  id: string;
  name: string;
  ownerOrgId: string;
  topologyGen: number;
  units: UnitView[];
  counts: Record<UnitState, number>;
  createdAt: string;
  updatedAt: string;
};

/** Node objects for `rows`, unit states at `ctx.now`, as the principal may see them. */
export async function toNodeViews(ctx: Ctx, rows: NodeRow[]): Promise<NodeView[]> {
  const inputs = await loadUnitInputs(ctx.db, rows.map((n) => n.id), ctx.now);
  return rows.map((n) => {
    const units = computeUnitViews(ctx, n, inputs.units.get(n.id) ?? [], inputs.holds.get(n.id) ?? [], inputs.running.get(n.id) ?? [], ctx.now);
    return {
      id: n.id,
      name: n.name,
      ownerOrgId: n.ownerOrgId,
      topologyGen: n.topologyGen,
      units,
      counts: countUnitStates(units),
      createdAt: n.createdAt.toISOString(),
      updatedAt: n.updatedAt.toISOString(),
    };
  });
}

export const GetNodeInput = z.object({ nodeId: Id });
export type GetNodeInput = z.infer<typeof GetNodeInput>;

/**
 * One node with its units' states at `ctx.now` (SPEC §3, §5 Objects). Any signed-in
 * principal may see any node; reservation and VM ids only where the caller may see them.
 * @throws DomainError not_found
 */
export async function getNode({ ctx, input }: { ctx: Ctx; input: GetNodeInput }): Promise<NodeView> {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const [view] = await toNodeViews(ctx, [node]);
  return view!;
}

export const ListNodesInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional(), ownerOrgId: Id.optional() }).strict();
export type ListNodesInput = z.infer<typeof ListNodesInput>;
/** Query of `GET /v1/nodes`: the same, with `limit` as a query string. */
export const ListNodesQuery = ListNodesInput.extend({ limit: Limit.optional() });

/**
 * The nodes visible to the caller (all of them, SPEC §2), by id, cursor-paginated.
 * @param input.limit 1–500, default 100. @param input.cursor from a previous page.
 * @param input.ownerOrgId only nodes this org owns.
 * @returns `{ items: NodeView[], nextCursor? }`
 */
export async function listNodes({ ctx, input }: { ctx: Ctx; input: ListNodesInput }): Promise<{ items: NodeView[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const rows = await ctx.db
    .select()
    .from(nodes)
    .where(and(input.cursor !== undefined ? gt(nodes.id, decodeCursor(input.cursor)) : undefined, input.ownerOrgId ? eq(nodes.ownerOrgId, input.ownerOrgId) : undefined))
    .orderBy(asc(nodes.id))
    .limit(limit + 1);
  const page = toPage(rows, limit, (n) => n.id);
  return { items: await toNodeViews(ctx, page.items), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
