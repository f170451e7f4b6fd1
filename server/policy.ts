import { nodes, vms } from '@/db/schema';
import { sql, type SQL } from 'drizzle-orm';
import { isOperator, type Principal } from './context';
import { DomainError } from './errors';
import type { NodeRow } from './nodes/internal';
import type { ReservationRow } from './reservations/view';

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

/**
 * SQL condition: the principal may see this VM's id and units (SPEC §2): the operator all;
 * the node owner those on its nodes; a managing org those that ran on a unit of a
 * (non-cancelled) reservation it manages while that reservation held it — the VM's run
 * [startedAt, terminatedAt or now) meets the period [startsAt, endsAt); everyone their own.
 */
export function vmVisibleTo(principal: Principal, now: Date): SQL | undefined {
  if (isOperator(principal)) return undefined;
  return sql`(${vms.orgId} = ${principal.orgId}
    or exists (select 1 from ${nodes} n where n.id = ${vms.nodeId} and n.owner_org_id = ${principal.orgId})
    or exists (
      select 1 from vm_units vu
      join reservation_units ru on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and not ru.cancelled
      join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
      where vu.vm_id = ${vms.id} and ${principal.orgId} = any(r.managing_org_ids)
        and ru.starts_at < coalesce(${vms.terminatedAt}, ${now.toISOString()}::timestamptz)
        and (ru.ends_at is null or ru.ends_at > ${vms.startedAt})))`;
}
