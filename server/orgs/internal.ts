import type { DbOrTx } from '@/db/client';
import { orgs } from '@/db/schema';
import { inArray } from 'drizzle-orm';
import { sortByCodePoint } from '../ids';

/** The ids among `orgIds` that name no org. */
export async function unknownOrgIds(db: DbOrTx, orgIds: readonly string[]): Promise<string[]> {
  if (orgIds.length === 0) return [];
  const rows = await db.select({ id: orgs.id }).from(orgs).where(inArray(orgs.id, [...orgIds]));
  const known = new Set(rows.map((r) => r.id));
  return sortByCodePoint(new Set(orgIds.filter((id) => !known.has(id))));
}
