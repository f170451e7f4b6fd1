import type { Ctx } from '../context';
import { readNode } from './internal';
import type { GetNodeInput } from './schemas';
import { type NodeView, toNodeViews } from './view';

/**
 * One node with its units' states at `ctx.now` (docs/product.md §3, §5 Objects). Any signed-in
 * principal may see any node; reservation and VM ids only where the caller may see them.
 * @throws DomainError not_found
 */
export async function getNode({ ctx, input }: { ctx: Ctx; input: GetNodeInput }): Promise<NodeView> {
  const node = await readNode(ctx, input.nodeId);
  const [view] = await toNodeViews(ctx, [node]);
  return view!;
}
