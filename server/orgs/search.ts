import { orgs } from '@/db/schema';
import { asc, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
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
  return { items: await selectOrgSummaries(ctx.db, orgMatching(input.q)) };
}

/** `%text%` for LIKE, its own wildcards in `text` literal characters. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL: the org's name or id contains `q` (case-insensitive); none when `q` is blank. */
export function orgMatching(q: string | undefined): SQL | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const pattern = likeContaining(text);
  return or(ilike(orgs.name, pattern), ilike(orgs.id, pattern));
}

/** The first MAX_RESULTS orgs meeting `where`, by name then id: what an org picker offers. */
export async function selectOrgSummaries(db: DbOrTx, where: SQL | undefined): Promise<OrgSummary[]> {
  return db
    .select({ id: orgs.id, name: orgs.name })
    .from(orgs)
    .where(where)
    .orderBy(asc(orgs.name), sql`${orgs.id} collate "C"`)
    .limit(MAX_RESULTS);
}
