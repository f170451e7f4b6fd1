import type { Ctx } from '../context';
import type { NodeRow } from './internal';
import { computeUnitViews, countUnitStates, loadUnitInputs, type UnitState, type UnitView } from './unit-states';

/** The Node object (docs/product.md §5 Objects). */
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
  const inputs = await loadUnitInputs(
    ctx.db,
    rows.map((n) => n.id),
    ctx.now,
  );
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
