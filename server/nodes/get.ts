import type { Ctx } from '../context';
import { withOrgNames, type Named } from '../orgs/internal';
import { orgIdsNamedWithNode } from '../policy';
import { readNode } from './internal';
import type { GetNodeInput } from './schemas';
import { type NodeView, toNodeViews } from './view';

/**
 * One node with its units' states at `ctx.now` (docs/product.md §3, §5 Objects). Any signed-in
 * principal may see any node; reservation and VM ids only where the caller may see them. With
 * its owner's name (`orgNames`, §9.1 q: the console's; REST answers the node alone).
 * @throws DomainError not_found
 */
export async function getNode({ ctx, input }: { ctx: Ctx; input: GetNodeInput }): Promise<Named<NodeView>> {
  const node = await readNode(ctx, input.nodeId);
  const [view] = await withOrgNames(ctx, await toNodeViews(ctx, [node]), orgIdsNamedWithNode);
  return view!;
}
