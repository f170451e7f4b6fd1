import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { nodes, orgs, reservations } from '@/db/schema';
import { isOperator, type Principal } from './context';
import { DomainError, notFound } from './errors';
import { sortByCodePoint } from './ids';
import type { ReservationRow } from './reservation-view';

export type NodeRow = typeof nodes.$inferSelect;

/**
 * Row-lock modes, always taken in one order: node, then reservation, then VMs (by id).
 * Writers take the node `FOR NO KEY UPDATE`, so every change to one node's units is
 * serialised there (a spot placement racing a reclaim queues behind it and then sees the
 * reclaimed units). Readers that need one consistent picture (dry runs) take it `FOR SHARE`.
 * NO KEY UPDATE leaves foreign-key checks (FOR KEY SHARE) from other tables unblocked.
 */
export type LockMode = 'write' | 'read' | 'none';

/**
 * Finds a node, optionally locking it. Every signed-in principal may see every node (SPEC §2).
 * @throws DomainError not_found when there is no such node.
 */
export async function findNode(db: DbOrTx, nodeId: string, lock: LockMode): Promise<NodeRow & { lockedAt: Date }> {
  // clock_timestamp(), not now(): the time once the lock is held (see Ctx.clock).
  const lockedAt = sql<Date>`clock_timestamp()`.mapWith((v: string | Date) => new Date(v));
  const q = db
    .select({ ...getTableColumns(nodes), lockedAt })
    .from(nodes)
    .where(eq(nodes.id, nodeId));
  const rows = await (lock === 'write' ? q.for('no key update') : lock === 'read' ? q.for('share') : q);
  const node = rows[0];
  if (!node) throw notFound(`Node "${nodeId}"`);
  return node;
}

/** How the acting org relates to a reservation (SPEC §2's columns). */
export type ReservationRelation = { operator: boolean; owner: boolean; managing: boolean; audience: boolean };

export function relationTo(principal: Principal, node: NodeRow, r: Pick<ReservationRow, 'allowedOrgIds' | 'managingOrgIds'>): ReservationRelation {
  return {
    operator: isOperator(principal),
    owner: node.ownerOrgId === principal.orgId,
    managing: r.managingOrgIds.includes(principal.orgId),
    audience: r.allowedOrgIds.includes(principal.orgId),
  };
}

export function maySeeReservation(rel: ReservationRelation): boolean {
  return rel.operator || rel.owner || rel.managing || rel.audience;
}

/** Release and reclaim: operator, node owner, managing orgs; never the audience as such. */
export function mayManageMarket(rel: ReservationRelation): boolean {
  return rel.operator || rel.owner || rel.managing;
}

/**
 * Release and reclaim (SPEC §2): "being in the audience does not confer" them.
 * @throws DomainError forbidden
 */
export function requireMarketManager(rel: ReservationRelation, verb: 'release' | 'reclaim'): void {
  if (!mayManageMarket(rel)) {
    throw new DomainError('forbidden', `Only a platform operator, the node owner or a managing org may ${verb} units; being in the audience does not confer it.`);
  }
}

/**
 * Finds a reservation under `node` that the principal may see, optionally locking it.
 * A reservation addressed under the wrong node, or invisible to the caller, is 404 (SPEC §2).
 * @throws DomainError not_found
 */
export async function findVisibleReservation(
  db: DbOrTx,
  principal: Principal,
  node: NodeRow,
  reservationId: string,
  lock: LockMode,
): Promise<{ reservation: ReservationRow; relation: ReservationRelation }> {
  const q = db
    .select()
    .from(reservations)
    .where(and(eq(reservations.id, reservationId), eq(reservations.nodeId, node.id)));
  const rows = await (lock === 'write' ? q.for('no key update') : lock === 'read' ? q.for('share') : q);
  const reservation = rows[0];
  const relation = reservation && relationTo(principal, node, reservation);
  if (!reservation || !relation || !maySeeReservation(relation)) throw notFound(`Reservation "${reservationId}" on node "${node.id}"`);
  return { reservation, relation };
}

/**
 * Actions only a platform operator may take (register a node, change topology, re-affirm).
 * @throws DomainError forbidden
 */
export function requireOperator(principal: Principal, what: string): void {
  if (!isOperator(principal)) throw new DomainError('forbidden', `Only a platform operator may ${what}.`);
}

/**
 * Editing and cancelling a reservation: the operator and the node owner (SPEC §2).
 * @throws DomainError forbidden for managing orgs and the audience.
 */
export function requireReservationOwner(rel: ReservationRelation, what: string): void {
  if (!rel.operator && !rel.owner) throw new DomainError('forbidden', `Only a platform operator or the node owner may ${what}.`);
}

/** The ids among `orgIds` that name no org. */
export async function unknownOrgIds(db: DbOrTx, orgIds: readonly string[]): Promise<string[]> {
  if (orgIds.length === 0) return [];
  const rows = await db.select({ id: orgs.id }).from(orgs).where(inArray(orgs.id, [...orgIds]));
  const known = new Set(rows.map((r) => r.id));
  return sortByCodePoint(new Set(orgIds.filter((id) => !known.has(id))));
}
