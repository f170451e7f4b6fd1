import type { DbOrTx } from '@/db/client';
import { orgs } from '@/db/schema';
import { inArray } from 'drizzle-orm';
import { DomainError } from '../errors';
import { sortByCodePoint } from '../ids';

/**
 * Every id of `orgIds` must name an org (an audience, managing orgs, a node's owner).
 * @param detail the sentence for the 422, given the unknown ids.
 * @throws DomainError unknown_org naming the others, by code point.
 */
export async function requireKnownOrgs(db: DbOrTx, orgIds: readonly string[], detail: (unknown: string[]) => string = (ids) => `No orgs ${ids.join(', ')} exist.`): Promise<void> {
  if (orgIds.length === 0) return;
  const rows = await db.select({ id: orgs.id }).from(orgs).where(inArray(orgs.id, [...orgIds]));
  const known = new Set(rows.map((r) => r.id));
  const unknown = sortByCodePoint(new Set(orgIds.filter((id) => !known.has(id))));
  if (unknown.length) throw new DomainError('unknown_org', detail(unknown), { orgIds: unknown });
}
