import type { DbOrTx, Tx } from '@/db/client';
import { orgs } from '@/db/schema';
import { eq, inArray } from 'drizzle-orm';
import { DomainError } from '../errors';
import { sortByCodePoint } from '../ids';

/**
 * Every id of `orgIds` must name an org (an audience, managing orgs, a node's owner).
 * @param detail the sentence for the 422, given the unknown ids.
 * @throws DomainError unknown_org naming the others, by code point.
 */
export async function requireKnownOrgs(
  db: DbOrTx,
  orgIds: readonly string[],
  detail: (unknown: string[]) => string = (ids) => `No orgs ${ids.join(', ')} exist.`,
): Promise<void> {
  if (orgIds.length === 0) return;
  const rows = await db
    .select({ id: orgs.id })
    .from(orgs)
    .where(inArray(orgs.id, [...orgIds]));
  const known = new Set(rows.map((r) => r.id));
  const unknown = sortByCodePoint(new Set(orgIds.filter((id) => !known.has(id))));
  if (unknown.length) throw new DomainError('unknown_org', detail(unknown), { orgIds: unknown });
}

/**
 * Locks an org's row (`FOR NO KEY UPDATE`) for the rest of the transaction: what is counted per
 * org under it (its active API keys, its key creations of the last minute) is then the count at
 * commit, since every other writer of that count queues here first. The mode leaves foreign-key
 * checks (`FOR KEY SHARE`, taken by inserting a row that references the org) free to run.
 * Read what the lock guards in a later statement: under READ COMMITTED, only a statement that
 * starts after the lock is granted sees what the transaction before it committed.
 * @throws Error when the org does not exist (a principal always acts as one).
 */
export async function lockOrg(tx: Tx, orgId: string): Promise<void> {
  const [row] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, orgId)).for('no key update');
  if (!row) throw new Error(`lockOrg: no org "${orgId}"`);
}

/**
 * The names of the given orgs, for ids the caller already sees (server/policy.ts
 * `orgIdsNamedWith`): one statement whatever their number; an id naming no org is left out.
 */
export async function nameOrgs(db: DbOrTx, orgIds: Iterable<string>): Promise<Record<string, string>> {
  const ids = [...new Set(orgIds)];
  if (ids.length === 0) return {};
  const rows = await db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(inArray(orgs.id, ids));
  return Object.fromEntries(rows.map((o) => [o.id, o.name]));
}
