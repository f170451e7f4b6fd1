/**
 * The scheduled-reclaim operations (docs/product.md §5.6): one declaration each
 * (server/operation.ts). REST's `{nodeId}` fills `nodeId`, `{id}` fills `reservationId` and
 * `{scheduleId}` fills `scheduleId`.
 */
import type { ErrorCode } from '../errors';
import { ReclaimSchedule, ReclaimSchedulePage } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { pageWithoutOrgNames } from '../orgs/internal';
import { cancelReclaimSchedule, rescheduleReclaim } from './change';
import { createReclaimSchedule } from './create';
import { getReclaimSchedule, listReclaimSchedules } from './read';
import { CancelReclaimScheduleInput, CreateReclaimScheduleInput, GetReclaimScheduleInput, ListReclaimSchedulesInput, RescheduleReclaimInput } from './schemas';

const NOT_FOUND_AND_FORBIDDEN: ErrorCode[] = ['not_found', 'forbidden'];
const reservationPath = { id: 'reservationId' } as const;
const collection = '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims' as const;
const item = '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}' as const;

export const scheduledReclaimOperations = {
  list: operation({
    verb: listReclaimSchedules,
    input: ListReclaimSchedulesInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.schedules',
    rest: {
      method: 'GET',
      path: collection,
      params: reservationPath,
      operationId: 'listScheduledReclaims',
      tag: 'Reservations',
      summary: "List a reservation's scheduled reclaims",
      description: 'Newest first, cursor-paginated. Same principals as reclaim: the audience sees each unit’s `reclaimAt` on the node instead (403 here).',
      response: ReclaimSchedulePage,
      responseDescription: 'A page of scheduled reclaims.',
      errors: NOT_FOUND_AND_FORBIDDEN,
      // The verb names each scheduler's org for the console (docs/product.md §9.1 q); REST answers schedules.
      answer: pageWithoutOrgNames,
    },
  }),
  create: operation({
    verb: createReclaimSchedule,
    input: CreateReclaimScheduleInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.schedule-reclaim',
    rest: {
      method: 'POST',
      path: collection,
      params: reservationPath,
      operationId: 'scheduleReclaim',
      tag: 'Reservations',
      summary: 'Schedule a reclaim, telling the spot tenants now',
      description:
        'Reclaims the units at `at` (in the future, at most 30 days ahead, before the reservation’s endsAt), exactly once, acting as the caller (`via: schedule`) with its permission checked again then. Every spot tenant on the units is notified now and on every change (`notBefore = at`); the units and VMs carry `reclaimAt` until it runs. A unit in another pending schedule of the reservation is 409 already_scheduled. Same principals as reclaim.',
      status: 201,
      response: ReclaimSchedule,
      responseDescription: 'The schedule, pending.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'unit_not_in_reservation', 'invalid_schedule_time', 'already_scheduled'],
    },
  }),
  get: operation({
    verb: getReclaimSchedule,
    input: GetReclaimScheduleInput,
    kind: 'query',
    scope: 'read',
    console: 'reservation.schedules',
    rest: {
      method: 'GET',
      path: item,
      params: reservationPath,
      operationId: 'getScheduledReclaim',
      tag: 'Reservations',
      summary: 'Get a scheduled reclaim',
      description: 'Its status, and once done the outcome (terminated and skipped VM ids). Same principals as reclaim.',
      response: ReclaimSchedule,
      responseDescription: 'The schedule.',
      errors: NOT_FOUND_AND_FORBIDDEN,
    },
  }),
  reschedule: operation({
    verb: rescheduleReclaim,
    input: RescheduleReclaimInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'reservation.reschedule',
    rest: {
      method: 'PATCH',
      path: item,
      params: reservationPath,
      operationId: 'rescheduleReclaim',
      tag: 'Reservations',
      summary: 'Move a pending scheduled reclaim',
      description:
        'The same time rules as on creation; the tenants are told again. A schedule no longer pending is 409 schedule_not_pending with `scheduleStatus`.',
      response: ReclaimSchedule,
      responseDescription: 'The schedule after the change.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'schedule_not_pending', 'invalid_schedule_time'],
    },
  }),
  cancel: operation({
    verb: cancelReclaimSchedule,
    input: CancelReclaimScheduleInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'reservation.cancel-schedule',
    rest: {
      method: 'DELETE',
      path: item,
      params: reservationPath,
      operationId: 'cancelScheduledReclaim',
      tag: 'Reservations',
      summary: 'Cancel a pending scheduled reclaim',
      description: 'Its tenants are told it will not come. A schedule no longer pending is 409 schedule_not_pending with `scheduleStatus`.',
      response: ReclaimSchedule,
      responseDescription: 'The schedule, cancelled.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'schedule_not_pending'],
    },
  }),
} satisfies OperationGroup;
