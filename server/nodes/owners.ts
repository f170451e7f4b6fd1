import { nodes, orgs } from '@/db/schema';
import { and, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { orgMatching, selectOrgSummaries, type OrgSummary } from '../orgs/search';
import type { ListNodeOwnersInput } from './schemas';

/**
 * The owners the fleet's owner filter offers for what a person typed (docs/product.md §6): orgs
 * that own a node, whose name or id contains `q` (case-insensitive), by name, at most 20. Every
 * signed-in principal may ask: a node's owner shows, named, with the node to all (§9.1 q), so
 * this names no org the fleet does not already name — unlike `orgs.search`, which finds any org.
 * @returns `{ items: [{ id, name }] }`
 */
export async function listNodeOwners({ ctx, input }: { ctx: Ctx; input: ListNodeOwnersInput }): Promise<{ items: OrgSummary[] }> {
  const ownsANode = sql`exists (select 1 from ${nodes} where ${nodes.ownerOrgId} = ${orgs.id})`;
  return { items: await selectOrgSummaries(ctx.db, and(ownsANode, orgMatching(input.q))) };
}
