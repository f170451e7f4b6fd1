/**
 * How a cross-node reservation list relates the acting org to each reservation (docs/product.md §5
 * `GET /v1/reservations?role`): `any` every reservation it may see; `audience` those whose
 * allowedOrgIds hold it (its capacity); `managing` those whose managingOrgIds hold it.
 *
 * A vocabulary, not a rule: the schema validates it, the policy lists by it
 * (server/policy.ts `reservationListedFor`), and the "My capacity" page offers its values as
 * filters — which is why it lives here and not in the policy, which pages never import.
 */

export const reservationRoles = ['any', 'audience', 'managing'] as const;
export type ReservationRole = (typeof reservationRoles)[number];
