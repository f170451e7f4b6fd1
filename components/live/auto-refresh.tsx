'use client';

import { useRouter } from 'next/navigation';
import { createContext, useCallback, useEffect, useRef, useTransition } from 'react';
import { isConnectionLost, subscribeConnection } from './connection';
import type { LiveChange } from './event-stream';
import { freshness, markUpdated } from './freshness';

/**
 * How a page that refreshes by itself renders again (useAutoRefresh's `refresh`), for what it
 * holds that changed something (a dialog, through useRefreshPage): that refresh then shows as
 * the page's own ("Refreshing…"), and the page knows when it is done.
 */
export const PageRefreshContext = createContext<(() => void) | null>(null);

/** While the live stream is open, a page still polls this seldom, in case a change was missed. */
const LIVE_POLL_MS = 30_000;

/**
 * Re-renders the page's server components while the tab is visible (`router.refresh()`: the
 * server reads again, client state such as a selection stays), so a page rendered from server
 * data stays live without a client data layer on its first load: at once when a change it shows
 * commits (`follows`, over the live stream — components/live/event-stream.ts, loaded once the
 * page is up), and every `ms` while the stream is down (every 30 s while it is open).
 * @param follows which changes of the acting org's stream concern the page; none: polling only.
 * @returns whether a refresh is in flight, and `refresh` to start one now (PageRefreshContext).
 */
export function useAutoRefresh(ms: number, follows?: (change: LiveChange) => boolean): { refreshing: boolean; refresh: () => void } {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const lastRefresh = useRef(0);
  const refresh = useCallback(() => {
    lastRefresh.current = Date.now();
    startTransition(() => router.refresh());
  }, [router]);
  // The header's "Updated …": the first render, then each refresh as it lands.
  useEffect(() => {
    if (!refreshing) markUpdated();
  }, [refreshing]);
  const followsRef = useRef(follows);
  useEffect(() => {
    followsRef.current = follows;
  });
  const following = follows !== undefined;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible' || isConnectionLost()) return;
      if (following && freshness().mode === 'live' && Date.now() - lastRefresh.current < LIVE_POLL_MS) return;
      refresh();
    }, ms);
    const unsubscribe = subscribeConnection(() => {
      if (!isConnectionLost()) refresh();
    });
    let unfollow: (() => void) | undefined;
    let gone = false;
    if (following) {
      void import('./event-stream').then(({ followChanges }) => {
        if (!gone) unfollow = followChanges((c) => followsRef.current?.(c) ?? false, refresh);
      });
    }
    return () => {
      gone = true;
      clearInterval(timer);
      unsubscribe();
      unfollow?.();
    };
  }, [ms, refresh, following]);
  return { refreshing, refresh };
}

/** The kinds of change that ring the header's bell: a notification to the org is written with them. */
const ringsTheBell = new Set(['vm.reclaimed', 'vm.reclaim_scheduled', 'reservation.needs_review', 'webhook.disabled']);

/** `useAutoRefresh` for a server layout: the header's unread count on every console page, at once when a notification comes. */
export function AutoRefresh({ ms }: { ms: number }) {
  useAutoRefresh(ms, (c) => ringsTheBell.has(c.type));
  return null;
}
