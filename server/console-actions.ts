/**
 * Where the console offers an operation to a person (docs/product.md §6: everything the API does
 * for a person, the console does). Each operation's declaration (server/<entity>/operations.ts)
 * names one of these ids, or says why it is API-only; each id is registered by the page or
 * component that offers it, with `offers(id)` (components/offers.ts), and
 * server/console-actions.test.ts fails for an id that nothing registers or no operation names.
 *
 * An id is `<screen>.<what>`: the screen a person is on, then the page itself (`page`) or the
 * control that starts the action there.
 */
export const consoleActionIds = [
  'fleet.page',
  'fleet.register-node',
  'calendar.page',
  'node.page',
  'node.unit-details',
  'node.change-topology',
  'node.topology-history',
  'node.timeline',
  'node.reservations-panel',
  'node.vm-table',
  'node.reserve',
  'node.edit-reservation',
  'node.cancel-reservation',
  'node.release',
  'node.reclaim',
  'node.reclaim-plan',
  'node.schedule-reclaim',
  'node.reaffirm',
  'node.terminate-vm',
  'capacity.page',
  'reservation.page',
  'reservation.actions',
  'reservation.history',
  'reservation.utilisation',
  'reservation.schedules',
  'reservation.reschedule',
  'reservation.cancel-schedule',
  'vms.page',
  'vm.page',
  'audit.page',
  'utilisation.page',
  'notifications.page',
  'notifications.mark-read',
  'header.bell',
  'org-picker',
  'api-keys.page',
  'api-keys.create',
  'api-keys.revoke',
  'webhooks.page',
  'webhooks.create',
  'webhooks.update',
  'webhooks.delete',
  'webhooks.rotate-secret',
  'webhooks.attempts',
  'webhooks.redeliver',
  'members.page',
  'members.change-role',
  'members.remove',
  'members.invite',
  'members.revoke-invite',
  'sign-ins.page',
  'sign-ins.unlock',
] as const;

export type ConsoleActionId = (typeof consoleActionIds)[number];
