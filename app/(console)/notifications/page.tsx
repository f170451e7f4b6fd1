import { NotificationList } from '@/components/notifications/notification-list';
import { notificationsQueryInput, readFilters, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { getConsoleSession } from '@/server/auth/console-principal';

export const metadata = { title: 'Notifications · GPU Reservations' };

/** The notifications page: the acting org's page the URL's `cursor` names, read here and rendered from these props. */
export default async function NotificationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { cursor } = readFilters(await searchParams, ['cursor']);
  const list = trpc.audit.notifications.queryOptions(notificationsQueryInput(cursor));
  await prefetch(list);
  // The layout has read the session already (cached per request): no query of its own.
  const session = await getConsoleSession();
  return <NotificationList list={prefetched(list)} cursor={cursor} mayMarkRead={session?.grants.includes('vms:write') ?? false} />;
}
