import type { DbOrTx, Tx } from '@/db/client';
import type { Ctx } from '../context';
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

/** Org names by id: the orgs a read names, each by the id the caller already sees (docs/product.md §9.1 q). */
export type OrgNames = Record<string, string>;

/** A console read's object with the names of the orgs it shows (REST answers the object alone). */
export type Named<T> = T & { orgNames: OrgNames };

/** The part of `names` (one `nameOrgs` for a whole page) that one item's org ids name. */
export function namesOf(names: OrgNames, orgIds: readonly string[]): OrgNames {
  return Object.fromEntries(orgIds.flatMap((id) => (names[id] ? [[id, names[id]]] : [])));
}

/**
 * The names of the orgs a console read shows (docs/product.md §9.1 q), in one statement; none
 * asked on any other transport: REST answers ids only (its `answer` drops `orgNames`), so an
 * API call never pays for names it would throw away.
 */
export async function nameShownOrgs(ctx: Pick<Ctx, 'db' | 'via'>, orgIds: Iterable<string>): Promise<OrgNames> {
  return ctx.via === 'console' ? nameOrgs(ctx.db, orgIds) : {};
}

/**
 * Each item with the names of the orgs it shows (`nameShownOrgs`: one statement for the whole
 * list, never one per item).
 * @param orgIdsOf the ids the item shows its reader: a rule of server/policy.ts (`orgIdsNamedWith…`).
 */
export async function withOrgNames<T extends object>(
  ctx: Pick<Ctx, 'db' | 'via'>,
  items: readonly T[],
  orgIdsOf: (item: T, index: number) => string[],
): Promise<Named<T>[]> {
  const ids = items.map(orgIdsOf);
  const names = await nameShownOrgs(ctx, ids.flat());
  return items.map((item, i) => ({ ...item, orgNames: namesOf(names, ids[i]!) }));
}

/** An object without the names a console read added (distributive, so a union keeps its members). */
export type Unnamed<T> = T extends unknown ? Omit<T, 'orgNames'> : never;

/** What REST answers for a console read that names orgs: the object alone (§9.1 q: the REST objects keep ids only). */
export function withoutOrgNames<T extends { orgNames: OrgNames }>(item: T): Unnamed<T> {
  const { orgNames: _names, ...object } = item;
  return object as Unnamed<T>;
}

/** `withoutOrgNames` for each item of a page (REST's `{ items, nextCursor? }`). */
export function pageWithoutOrgNames<T extends { orgNames: OrgNames }>(page: { items: T[]; nextCursor?: string }): { items: Unnamed<T>[]; nextCursor?: string } {
  return { items: page.items.map(withoutOrgNames), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
}
