import { listNotifications } from '@/server/notifications/list';
import { ListNotificationsQuery } from '@/server/notifications/schemas';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListNotificationsQuery, handle: ({ ctx, query }) => listNotifications({ ctx, input: query }) }),
});
