import { nodes } from '@/db/schema';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Ctx } from '../context';
import { decodeCursor, toPage } from '../pagination';
import type { ListNodesInput } from './schemas';
import { type NodeView, toNodeViews } from './view';

/**
 * The nodes visible to the caller (all of them, docs/product.md §2), by id, cursor-paginated.
 * @param input.limit 1–500, default 100. @param input.cursor from a previous page.
 * @param input.ownerOrgId only nodes this org owns.
 * @returns `{ items: NodeView[], nextCursor? }`
 */
export async function listNodes({ ctx, input }: { ctx: Ctx; input: ListNodesInput }): Promise<{ items: NodeView[]; nextCursor?: string }> {
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
    (kept) => toNodeViews(ctx, kept),
  );
}
