import { NotificationList } from '@/components/notifications/notification-list';
import { notificationsQueryInput } from '@/components/queries';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'Notifications · GPU Reservations' };

/** The notifications page: the acting org's first page is fetched here, so the list is in the first HTML. */
export default async function NotificationsPage() {
  await prefetch(trpc.audit.notifications.queryOptions(notificationsQueryInput()));
  return (
    <HydrateClient>
      <NotificationList />
    </HydrateClient>
  );
}
