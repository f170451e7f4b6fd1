import type { RouterInputs } from '../trpc-types';

type EventType = NonNullable<RouterInputs['webhooks']['create']['types']>[number];

/**
 * The event types a webhook endpoint may take (docs/product.md §5.7), for the form's checkboxes:
 * the server's list, restated for the browser — `tsc` fails when the two differ (below).
 */
export const EVENT_TYPES = [
  'vm.reclaimed',
  'vm.reclaim_scheduled',
  'vm.placed',
  'vm.terminated',
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'reservation.released',
  'reservation.reclaimed',
  'reservation.needs_review',
  'reservation.reaffirmed',
  'reservation.started',
  'reservation.expired',
  'reclaim_schedule.created',
  'reclaim_schedule.updated',
  'reclaim_schedule.cancelled',
  'reclaim_schedule.lapsed',
  'reclaim_schedule.done',
  'node.registered',
  'node.topology_changed',
  'webhook.disabled',
] as const satisfies readonly EventType[];

// Every type the server knows is offered.
export type _EveryType = [Exclude<EventType, (typeof EVENT_TYPES)[number]>] extends [never] ? true : never;
const _check: _EveryType = true;
void _check;
