'use client';

import Link from 'next/link';
import { useLastGood } from '../live/use-last-good';
import { offers } from '../offers';

/**
 * The header's bell (docs/product.md §6): the acting org's unread notifications, on every
 * page, linking to them. The count is read on the server (app/(console)/account-nav.tsx) and
 * changes when the page renders again — every 30 s (the layout's AutoRefresh), and at once
 * after marking notifications read (useRefreshPage). A render that could not count (the rate
 * limit) keeps the last count; with none yet, the bell shows no number rather than a false 0.
 */
export function NotificationBell(props: { unread: number | undefined }) {
  const unread = useLastGood({ data: props.unread }, '').data;
  return (
    <Link
      {...offers('header.bell')}
      href="/notifications"
      aria-label={unread === undefined ? 'Notifications' : `Notifications, ${unread} unread`}
      data-testid="notification-bell"
      className="relative inline-flex items-center rounded-md p-1 text-ink-3 hover:bg-surface-3 hover:text-ink"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread !== undefined && unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="unread-count"
          className="absolute -right-1.5 -top-1 min-w-4 rounded-full bg-danger-solid px-1 text-center text-[10px] font-bold leading-4 text-on-accent"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
