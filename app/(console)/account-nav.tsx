import { NotificationBell } from '@/components/notifications/notification-bell';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import Link from 'next/link';

/**
 * The header's links to the acting org's own things (docs/product.md §6): for its admins, its
 * members, API keys and webhooks; for everyone the bell with its unread notifications — counted here, on every render of the page (its own
 * refreshes and the layout's AutoRefresh), so the first HTML already shows it.
 */
export async function AccountNav({ admin }: { admin: boolean }) {
  const unread = trpc.audit.unreadNotificationCount.queryOptions();
  await prefetch(unread);
  return (
    <nav aria-label="Your org" className="flex items-center gap-4 text-sm text-ink-3">
      {/* Members, keys and webhooks are the org's admins' (docs/product.md §2 Roles). */}
      {admin && (
        <>
          <Link href="/members" className="hover:text-ink">
            Members
          </Link>
          <Link href="/api-keys" className="hover:text-ink">
            API keys
          </Link>
          <Link href="/webhooks" className="hover:text-ink">
            Webhooks
          </Link>
        </>
      )}
      <NotificationBell unread={prefetched(unread).data?.unread} />
    </nav>
  );
}
