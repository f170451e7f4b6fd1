'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useTransition } from 'react';

/**
 * Re-renders the page's server components every `ms` while the tab is visible
 * (`router.refresh()`: the server reads again, client state such as a selection stays), so a
 * page rendered from server data stays live without a client data layer on its first load.
 * @returns whether a refresh is in flight.
 */
export function useAutoRefresh(ms: number): boolean {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') startTransition(() => router.refresh());
    }, ms);
    return () => clearInterval(timer);
  }, [ms, router]);
  return refreshing;
}

/** `useAutoRefresh` for a server layout: the header's unread count on every console page. */
export function AutoRefresh({ ms }: { ms: number }) {
  useAutoRefresh(ms);
  return null;
}
