import { nodes, orgs } from '@/db/schema';
import { and, asc, ilike, or, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import type { OrgSummary } from '../orgs/search';
import type { ListNodeOwnersInput } from './schemas';

const MAX_OWNERS = 20;

/**
 * The owners the fleet's owner filter offers for what a person typed (docs/product.md §6): orgs
 * that own a node, whose name or id contains `q` (case-insensitive), by name, at most 20. Every
 * signed-in principal may ask: a node's owner shows, named, with the node to all (§9.1 q), so
 * this names no org the fleet does not already name — unlike `orgs.search`, which finds any org.
 * @returns `{ items: [{ id, name }] }`
 */
export async function listNodeOwners({ ctx, input }: { ctx: Ctx; input: ListNodeOwnersInput }): Promise<{ items: OrgSummary[] }> {
  const q = input.q?.trim();
  // LIKE's own wildcards in the fragment are literal characters here.
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await ctx.db
    .select({ id: orgs.id, name: orgs.name })
    .from(orgs)
    .where(
      and(
        sql`exists (select 1 from ${nodes} where ${nodes.ownerOrgId} = ${orgs.id})`,
        pattern ? or(ilike(orgs.name, pattern), ilike(orgs.id, pattern)) : undefined,
      ),
    )
    .orderBy(asc(orgs.name), sql`${orgs.id} collate "C"`)
    .limit(MAX_OWNERS);
  return { items: rows };
}
