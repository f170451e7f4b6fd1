import { orgs } from '@/db/schema';
import { asc, ilike, or, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { assertMayPickOrgs } from '../policy';
import type { SearchOrgsQuery } from './schemas';

/** An entry of the org picker: id and name only, nothing else about an org shows here. */
export type OrgSummary = { id: string; name: string };

const MAX_RESULTS = 20;

/**
 * Orgs whose name or id contains `q` (case-insensitive), by name, at most 20: the org picker of
 * the reserve and edit dialogs (docs/product.md §2 "search orgs"). Only principals who may
 * create reservations — the operator and node owners — may search; an org's name is not
 * every tenant's business.
 * @returns `{ items: [{ id, name }] }`
 * @throws DomainError forbidden for principals who own no node.
 */
export async function searchOrgs({ ctx, input }: { ctx: Ctx; input: SearchOrgsQuery }): Promise<{ items: OrgSummary[] }> {
  await assertMayPickOrgs(ctx);
  const q = input.q?.trim();
  // LIKE's own wildcards in the fragment are literal characters here.
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await ctx.db
    .select({ id: orgs.id, name: orgs.name })
    .from(orgs)
    .where(pattern ? or(ilike(orgs.name, pattern), ilike(orgs.id, pattern)) : undefined)
    .orderBy(asc(orgs.name), sql`${orgs.id} collate "C"`)
    .limit(MAX_RESULTS);
  return { items: rows };
}
