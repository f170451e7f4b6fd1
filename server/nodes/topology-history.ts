import { nodeTopologies } from '@/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../context';
import { readNode } from './internal';

/** Every generation's unit list of a node, oldest first (docs/product.md §5.4: the console shows what changed). */
export async function listTopologyHistory({ ctx, input }: { ctx: Ctx; input: { nodeId: string } }) {
  const node = await readNode(ctx, input.nodeId);
  const rows = await ctx.db.select().from(nodeTopologies).where(eq(nodeTopologies.nodeId, node.id)).orderBy(nodeTopologies.gen);
  return rows.map((r) => ({ gen: r.gen, units: r.units, createdAt: r.createdAt.toISOString() }));
}
