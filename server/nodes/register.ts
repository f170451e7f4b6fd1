import { nodeTopologies, nodeUnits, nodes } from '@/db/schema';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { requireKnownOrgs } from '../orgs/internal';
import { assertNodeAction, nodeRelation } from '../policy';
import { normalise, unitRows } from './internal';
import type { RegisterNodeInput } from './schemas';
import { toNodeViews, type NodeView } from './view';
import { recipientsOf } from '../events/write';

/**
 * Registers a node with its units at topologyGen 1 (docs/product.md §5 `POST /v1/nodes`).
 * @returns the Node object.
 * @throws DomainError forbidden (not an operator), unknown_org (ownerOrgId), already_exists (id taken).
 */
export async function registerNode({ ctx, input }: { ctx: Ctx; input: RegisterNodeInput }): Promise<NodeView> {
  assertNodeAction('registerNode', nodeRelation(ctx, null));
  return inTransaction(ctx, async (tx) => {
    await requireKnownOrgs(tx, [input.ownerOrgId], () => `No org "${input.ownerOrgId}" exists to own the node.`);
    const units = normalise(input.units);
    const inserted = await tx
      .insert(nodes)
      .values({ id: input.id, name: input.name.trim(), ownerOrgId: input.ownerOrgId, topologyGen: 1, createdAt: ctx.now, updatedAt: ctx.now })
      .onConflictDoNothing()
      .returning();
    const node = inserted[0];
    if (!node) throw new DomainError('already_exists', `A node "${input.id}" already exists; choose another id.`);
    await tx.insert(nodeUnits).values(unitRows(node.id, units));
    await tx.insert(nodeTopologies).values({ nodeId: node.id, gen: 1, units, createdAt: ctx.now });
    await writeAuditEvent(tx, ctx, {
      action: 'node.register',
      nodeId: node.id,
      to: recipientsOf(node),
      unitIds: units.map((u) => u.id),
      details: { name: node.name, ownerOrgId: node.ownerOrgId, topologyGen: 1 },
    });
    const [view] = await toNodeViews({ ...ctx, db: tx }, [node]);
    return view!;
  });
}
