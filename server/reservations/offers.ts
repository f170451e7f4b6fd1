import type { Ctx } from '../context';
import { readNode } from '../nodes/internal';
import { nameShownOrgs, type OrgNames } from '../orgs/internal';
import { offeredReservationActions, orgIdsNamedWith, type ReservationAction } from '../policy';
import { findVisibleReservation } from './internal';
import type { GetReservationInput } from './schemas';
import { toReservation } from './view';

/** What the reservation page offers and names (console only). */
export type ReservationOffers = { actions: ReservationAction[]; orgNames: OrgNames };

/**
 * The console's offers on one reservation (docs/product.md §6): the actions the acting org may
 * take on it — the same list the node page's reservations panel gets (`reservations.listForNode`),
 * so both pages offer the same buttons — and the names of the orgs it names (its audience, its
 * managers, the node's owner: ids the caller already sees, server/policy.ts `orgIdsNamedWith`).
 * @throws DomainError not_found for an unknown node, or a reservation the caller may not see.
 */
export async function getReservationOffers({ ctx, input }: { ctx: Ctx; input: GetReservationInput }): Promise<ReservationOffers> {
  const node = await readNode(ctx, input.nodeId);
  const { reservation, relation, units } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  const view = toReservation(reservation, units, node.positions, node.topologyGen, ctx.now);
  return { actions: offeredReservationActions(relation, view), orgNames: await nameShownOrgs(ctx, orgIdsNamedWith(relation, reservation, node)) };
}
