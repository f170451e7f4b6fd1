import type { Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { getVm } from '../vms/get';
import type { VmView } from '../vms/view';
import { getNode } from './get';
import type { GetUnitInput } from './schemas';
import type { UnitView } from './unit-states';

/** One unit as `GET /v1/nodes/{nodeId}/units/{unitId}` answers it (docs/product.md §5 Objects). */
export type UnitDetailView = UnitView & { nodeId: string; vm?: VmView };

/**
 * One unit of a node at `ctx.now` (docs/product.md §3, §5 "one unit"): its state, its attributes,
 * the reservation and VM ids the grid shows (only where the caller may see them), and the VM on
 * it as `GET /v1/vms/{id}` answers it, where the caller may see that VM (docs/product.md §2).
 * @param input.nodeId the node; input.unitId one of its units.
 * @returns the unit's view with `nodeId`, and `vm` where visible.
 * @throws DomainError not_found for an unknown node or a unit the node does not have.
 */
export async function getUnit({ ctx, input }: { ctx: Ctx; input: GetUnitInput }): Promise<UnitDetailView> {
  const node = await getNode({ ctx, input: { nodeId: input.nodeId } });
  const unit = node.units.find((u) => u.id === input.unitId);
  if (!unit) throw notFound(`Unit "${input.unitId}" of node "${input.nodeId}"`);
  const vm = unit.vmId ? await getVm({ ctx, input: { vmId: unit.vmId } }).catch(keepNotFound) : undefined;
  return { ...unit, nodeId: node.id, ...(vm ? { vm } : {}) };
}

/** The grid may show a VM id that `getVm` does not (it ended in between): then there is no VM to show. */
function keepNotFound(e: unknown): undefined {
  if (e instanceof DomainError && e.code === 'not_found') return undefined;
  throw e;
}
