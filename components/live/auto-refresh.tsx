'use client';

import { useRouter } from 'next/navigation';
import { createContext, useCallback, useEffect, useTransition } from 'react';
import { isConnectionLost, subscribeConnection } from './connection';

/**
 * How a page that refreshes by itself renders again (useAutoRefresh's `refresh`), for what it
 * holds that changed something (a dialog, through useRefreshPage): that refresh then shows as
 * the page's own ("Refreshing…"), and the page knows when it is done.
 */
export const PageRefreshContext = createContext<(() => void) | null>(null);

/**
 * Re-renders the page's server components every `ms` while the tab is visible
 * (`router.refresh()`: the server reads again, client state such as a selection stays), so a
 * page rendered from server data stays live without a client data layer on its first load.
 * @returns whether a refresh is in flight, and `refresh` to start one now (PageRefreshContext).
 */
export function useAutoRefresh(ms: number): { refreshing: boolean; refresh: () => void } {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const refresh = useCallback(() => startTransition(() => router.refresh()), [router]);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && !isConnectionLost()) refresh();
    }, ms);
    const unsubscribe = subscribeConnection(() => {
      if (!isConnectionLost()) refresh();
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [ms, refresh]);
  return { refreshing, refresh };
}

/** `useAutoRefresh` for a server layout: the header's unread count on every console page. */
export function AutoRefresh({ ms }: { ms: number }) {
  useAutoRefresh(ms);
  return null;
}
