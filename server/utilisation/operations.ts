/**
 * The utilisation operations (docs/product.md §5.8 Utilisation): one declaration each
 * (server/operation.ts). REST's `{nodeId}` fills `nodeId` and `{id}` fills `reservationId`.
 */
import { ReservationUtilisation, UtilisationRollup } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { getReservationUtilisation } from './reservation';
import { getUtilisationRollup } from './rollup';
import { GetReservationUtilisationInput, GetUtilisationRollupInput } from './schemas';

export const utilisationOperations = {
  reservation: operation({
    verb: getReservationUtilisation,
    input: GetReservationUtilisationInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.utilisation',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}/reservations/{id}/utilisation',
      params: { id: 'reservationId' },
      operationId: 'getReservationUtilisation',
      tag: 'Utilisation',
      summary: "A reservation's utilisation",
      description:
        'GPU-hours held, idle while held, released, released and idle, used by spot VMs and by reserved-tier VMs, and the VMs reclaims evicted, over the last 7 or 30 days (`window`), with a series of 6-hour or 1-day buckets; computed from the record of unit intervals. Visible to whoever may see the reservation (else 404).',
      response: ReservationUtilisation,
      responseDescription: "The reservation's utilisation.",
      errors: ['not_found'],
    },
  }),
  rollup: operation({
    verb: getUtilisationRollup,
    input: GetUtilisationRollupInput,
    kind: 'query',
    scope: 'read',
    console: 'utilisation.page',
    rest: {
      method: 'GET',
      path: '/v1/utilisation',
      operationId: 'getUtilisationRollup',
      tag: 'Utilisation',
      summary: "The acting org's utilisation, per relation",
      description:
        'The same figures as a reservation’s, summed over the reservations the acting org stands to: on the nodes it owns (`owner`), that it manages (`manager`), that it may use (`audience`) and, for the platform operator, the whole fleet (`fleet`). A relation the org does not have is left out; never 403.',
      response: UtilisationRollup,
      responseDescription: 'One summary per relation.',
      errors: [],
    },
  }),
} satisfies OperationGroup;
