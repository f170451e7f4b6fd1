import { nodes } from '@/db/schema';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Ctx } from '../context';
import { withOrgNames, type Named } from '../orgs/internal';
import { decodeCursor, toPage } from '../pagination';
import { orgIdsNamedWithNode } from '../policy';
import type { ListNodesInput } from './schemas';
import { type NodeView, toNodeViews } from './view';

/**
 * The nodes visible to the caller (all of them, docs/product.md §2), by id, cursor-paginated.
 * @param input.limit 1–500, default 100. @param input.cursor from a previous page.
 * @param input.ownerOrgId only nodes this org owns.
 * @returns `{ items: NodeView[], nextCursor? }`, each with its owner's name (`orgNames`, docs/product.md
 *   §9.1 q: the console's, one statement for the page; REST answers the nodes alone).
 */
export async function listNodes({ ctx, input }: { ctx: Ctx; input: ListNodesInput }): Promise<{ items: Named<NodeView>[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const rows = await ctx.db
    .select()
    .from(nodes)
    .where(
      and(
        input.cursor !== undefined ? gt(nodes.id, decodeCursor(input.cursor)) : undefined,
        input.ownerOrgId ? eq(nodes.ownerOrgId, input.ownerOrgId) : undefined,
      ),
    )
    .orderBy(asc(nodes.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (n) => n.id,
    async (kept) => withOrgNames(ctx, await toNodeViews(ctx, kept), orgIdsNamedWithNode),
  );
}
