/**
 * The reservation operations (docs/product.md §5, §5.1, §5.2, §5.4): one declaration each
 * (server/operation.ts). REST's `{nodeId}` fills `nodeId` and `{id}` fills `reservationId`.
 */
import type { ErrorCode } from '../errors';
import { ReclaimPlan, ReclaimResponse, Reservation, ReservationCalendar, ReservationPage, type ReclaimContractAnswer } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { listReservationCalendar } from './calendar';
import { cancelReservation } from './cancel';
import { createReservation } from './create';
import { getReservation } from './get';
import { getReservationHistory } from './history';
import { listNodeReservations, listReservations } from './list';
import { getReservationOffers } from './offers';
import { reaffirm } from './reaffirm';
import { reclaim } from './reclaim';
import { planReclaim } from './reclaim-plan';
import { release } from './release';
import {
  CancelReservationInput,
  CreateReservationInput,
  GetReservationInput,
  ListNodeReservationsInput,
  ListReservationsInput,
  ReaffirmInput,
  ReclaimInput,
  ReclaimPlanInput,
  ReleaseInput,
  ReservationCalendarInput,
  UpdateReservationInput,
} from './schemas';
import { updateReservation } from './update';

const NOT_FOUND_AND_FORBIDDEN: ErrorCode[] = ['not_found', 'forbidden'];
const reservationPath = { id: 'reservationId' } as const;

export const reservationOperations = {
  list: operation({
    verb: listReservations,
    input: ListReservationsInput,
    kind: 'query',
    scope: 'read',
    console: 'capacity.page',
    rest: {
      method: 'GET',
      path: '/v1/reservations',
      operationId: 'listReservations',
      tag: 'Reservations',
      summary: 'List reservations across nodes',
      description:
        'The reservations the caller may see, on every node, ordered by (nodeId, id) and cursor-paginated. `role=audience` keeps those whose allowedOrgIds hold the acting org (its capacity), `role=managing` those whose managingOrgIds hold it. A filtered list: never 403.',
      response: ReservationPage,
      responseDescription: 'A page of reservations.',
      errors: [],
      export: {
        name: 'reservations',
        window: 'reservations whose period [startsAt, endsAt) meets [since, until) (an open-ended one never ends)',
        columns: [
          { name: 'nodeId', value: (r) => r.nodeId },
          { name: 'id', value: (r) => r.id },
          { name: 'status', value: (r) => r.status },
          { name: 'reservedUnitIds', value: (r) => r.reservedUnitIds },
          { name: 'releasedUnitIds', value: (r) => r.releasedUnitIds },
          { name: 'allowedOrgIds', value: (r) => r.allowedOrgIds },
          { name: 'managingOrgIds', value: (r) => r.managingOrgIds },
          { name: 'contractRef', value: (r) => r.contractRef },
          { name: 'startsAt', value: (r) => r.startsAt },
          { name: 'endsAt', value: (r) => r.endsAt },
          { name: 'reason', value: (r) => r.reason },
          { name: 'topologyGen', value: (r) => r.topologyGen },
          { name: 'createdAt', value: (r) => r.createdAt },
          { name: 'updatedAt', value: (r) => r.updatedAt },
        ],
      },
    },
  }),
  calendar: operation({
    verb: listReservationCalendar,
    input: ReservationCalendarInput,
    kind: 'query',
    scope: 'read',
    console: 'calendar.page',
    rest: {
      method: 'GET',
      // Its own top-level path: under /v1/reservations it would read as a reservation's id.
      path: '/v1/reservation-calendar',
      operationId: 'listReservationCalendar',
      tag: 'Reservations',
      summary: 'The fleet reservation calendar: reservations by node over a window',
      description:
        'A page of nodes — the same filters, sort and cursor as `GET /v1/nodes` — each with the reservations whose period meets `[from, to)` (at most 31 days) that the caller may see: not cancelled, by startsAt, with their status, unit count, audience and released spans. A filtered list: never 403.',
      response: ReservationCalendar,
      responseDescription: 'A page of nodes with their reservations in the window.',
      errors: [],
    },
  }),
  listForNode: operation({
    verb: listNodeReservations,
    input: ListNodeReservationsInput,
    kind: 'query',
    scope: 'read',
    console: 'node.reservations-panel',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}/reservations',
      operationId: 'listNodeReservations',
      tag: 'Reservations',
      summary: 'List reservations on a node',
      description: 'Reservations on the node that the caller may see, cursor-paginated.',
      response: ReservationPage,
      responseDescription: 'A page of reservations.',
      errors: ['not_found'],
      // The verb pairs each reservation with the console's actions; REST answers Reservations.
      answer: (page) => ({ items: page.items.map((r) => r.reservation), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }),
    },
  }),
  create: operation({
    verb: createReservation,
    input: CreateReservationInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.reserve',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations',
      operationId: 'createReservation',
      tag: 'Reservations',
      summary: 'Create a reservation',
      description:
        'Platform operator or node owner. `startsAt` defaults to now and may be at most 5 minutes in the past (else 422 start_in_past); the orgs named must exist (422).',
      status: 201,
      response: Reservation,
      responseDescription: 'The new reservation.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'already_exists', 'unit_occupied', 'reservation_overlap', 'start_in_past', 'unknown_unit', 'unknown_org'],
    },
  }),
  get: operation({
    verb: getReservation,
    input: GetReservationInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.page',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}/reservations/{id}',
      params: reservationPath,
      operationId: 'getReservation',
      tag: 'Reservations',
      summary: 'Get a reservation',
      response: Reservation,
      responseDescription: 'The reservation.',
      errors: ['not_found'],
    },
  }),
  offers: operation({
    verb: getReservationOffers,
    input: GetReservationInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.actions',
    rest: {
      none: "which buttons the reservation page shows, and the names of the orgs it names; a program reads the reservation (GET …/reservations/{id}) and learns what it may do from each route's 403",
    },
  }),
  history: operation({
    verb: getReservationHistory,
    input: GetReservationInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.history',
    rest: { none: "the console's status timeline of one reservation, read from the audit trail that GET /v1/audit publishes" },
  }),
  update: operation({
    verb: updateReservation,
    input: UpdateReservationInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.edit-reservation',
    rest: {
      method: 'PATCH',
      path: '/v1/nodes/{nodeId}/reservations/{id}',
      params: reservationPath,
      operationId: 'updateReservation',
      tag: 'Reservations',
      summary: 'Edit a reservation',
      description:
        'Edit the audience, managers, endsAt and contractRef, or shrink reservedUnitIds (never grow it: a removed unit also leaves releasedUnitIds).',
      response: Reservation,
      responseDescription: 'The reservation after the change.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'unit_occupied', 'reservation_overlap', 'unit_not_in_reservation', 'unknown_org'],
    },
  }),
  cancel: operation({
    verb: cancelReservation,
    input: CancelReservationInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.cancel-reservation',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations/{id}/cancel',
      params: reservationPath,
      operationId: 'cancelReservation',
      tag: 'Reservations',
      summary: 'Cancel a reservation',
      description: 'Pending, active or needs-review → cancelled. Its units stop being held; running VMs keep running.',
      response: Reservation,
      responseDescription: 'The cancelled reservation.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active'],
    },
  }),
  release: operation({
    verb: release,
    input: ReleaseInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.release',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations/{id}/release',
      params: reservationPath,
      operationId: 'releaseUnits',
      tag: 'Reservations',
      summary: 'Put reserved units on the spot market',
      description:
        'Same principals as reclaim. The reservation must be active; the units must be reserved by it and not run a VM. The dry run returns the reservation as it would look after the release, and writes nothing.',
      response: Reservation,
      responseDescription: 'The reservation after the release (or, on a dry run, as it would be).',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'reservation_needs_review', 'unit_occupied', 'unit_not_in_reservation'],
      readOnly: (input) => input.dryRun === true,
    },
  }),
  reclaim: operation({
    verb: reclaim,
    input: ReclaimInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.reclaim',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations/{id}/reclaim',
      params: reservationPath,
      operationId: 'reclaimUnits',
      tag: 'Reservations',
      // The published contract's words (docs/product.md §5.1a).
      summary: 'Take released GPU units back off the market, evicting spot workloads',
      description:
        "Returns the named units to exclusive use AND terminates the spot workloads running on them, in one call. Everything evicted was bought at the spot tier, whose terms are exactly that the capacity owner can reclaim without notice. Pass dryRun to see what would be terminated without changing anything. Callable by a platform operator, the org that owns the node, or an org in the reservation's managingOrgIds.",
      response: ReclaimResponse,
      responseDescription: 'OK',
      // Typed as the published contract has it (its optional fields optional), which the schema follows.
      answer: (result): ReclaimContractAnswer => result,
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'eviction_set_changed', 'unit_not_in_reservation'],
      readOnly: (input) => input.dryRun === true,
    },
  }),
  reclaimPlan: operation({
    verb: planReclaim,
    input: ReclaimPlanInput,
    kind: 'query',
    scope: 'reservations:write',
    console: 'node.reclaim-plan',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan',
      params: reservationPath,
      operationId: 'planReclaim',
      tag: 'Reservations',
      summary: 'Plan a reclaim of N GPUs: the fewest evictions, with a reason for each',
      description:
        "Which released units to reclaim to get `count` GPUs back, the spot VMs that terminates and why, by the `fewest-evictions` policy: the fewest spot VMs, then the least running work lost (GPU-hours), then the youngest VMs, then the fewest extra units, then the first units in node order. A VM's units go whole, so a plan may hold more than `count`. Same principals as reclaim; writes nothing. Send the plan's `unitIds` to `…/reclaim` with `expectedTerminate: wouldTerminate`.",
      response: ReclaimPlan,
      responseDescription: 'The plan.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'unit_not_in_reservation', 'not_enough_units'],
      readOnly: () => true,
    },
  }),
  reaffirm: operation({
    verb: reaffirm,
    input: ReaffirmInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.reaffirm',
    rest: {
      method: 'POST',
      path: '/v1/nodes/{nodeId}/reservations/{id}/reaffirm',
      params: reservationPath,
      operationId: 'reaffirmReservation',
      tag: 'Reservations',
      summary: 'Re-affirm a reservation after a topology change',
      description:
        "Platform operator only: sets the reservation's topologyGen to the node's, taking it out of needs-review. With `expectedTopologyGen`, only while the node is still at the generation the caller reviewed (else 409 topology_changed).",
      response: Reservation,
      responseDescription: 'The re-affirmed reservation.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'topology_changed', 'unit_missing'],
    },
  }),
} satisfies OperationGroup;
