/** The acting org's notifications (docs/product.md §5): one declaration each (server/operation.ts); served by the `audit` router. */
import { Notification, NotificationPage } from '../openapi/schemas';
import { NoInput, operation, type OperationGroup } from '../operation';
import { countUnreadNotifications } from './count-unread';
import { listNotifications } from './list';
import { markNotificationRead } from './read';
import { ListNotificationsInput, MarkNotificationReadInput } from './schemas';

export const notificationOperations = {
  notifications: operation({
    verb: listNotifications,
    input: ListNotificationsInput,
    kind: 'query',
    scope: 'read',
    console: 'notifications.page',
    rest: {
      method: 'GET',
      path: '/v1/notifications',
      operationId: 'listNotifications',
      tag: 'Audit',
      summary: "List the acting org's notifications",
      description: 'E.g. a VM ended by reclaim; newest first, cursor-paginated.',
      response: NotificationPage,
      responseDescription: 'A page of notifications.',
      errors: [],
    },
  }),
  unreadNotificationCount: operation({
    verb: countUnreadNotifications,
    input: NoInput,
    kind: 'query',
    scope: 'read',
    console: 'header.bell',
    rest: { none: "the header bell's count; programs read the notifications themselves (GET /v1/notifications, readAt)" },
  }),
  markNotificationRead: operation({
    verb: markNotificationRead,
    input: MarkNotificationReadInput,
    kind: 'mutation',
    scope: 'vms:write',
    console: 'notifications.mark-read',
    rest: {
      method: 'POST',
      path: '/v1/notifications/{id}/read',
      params: { id: 'notificationId' },
      operationId: 'markNotificationRead',
      tag: 'Audit',
      summary: 'Mark a notification read',
      description: "Only the acting org's own notifications; another org's is 404. Marking a read notification again keeps its first readAt.",
      response: Notification,
      responseDescription: 'The notification, with readAt.',
      errors: ['not_found'],
    },
  }),
} satisfies OperationGroup;
