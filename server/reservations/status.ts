/**
 * A reservation's statuses (docs/product.md §4), on their own: the policy judges actions by
 * status, the views compute it, the OpenAPI schemas enumerate it — and the policy imports no
 * view (eslint.config.mjs), so the list lives below both.
 */

export const reservationStatuses = ['pending', 'active', 'expired', 'cancelled', 'needs-review'] as const;

export type ReservationStatus = (typeof reservationStatuses)[number];
