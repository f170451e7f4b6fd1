'use client';

import { markMode } from './freshness';

/**
 * The console's live stream in the browser (docs/product.md §6 "Live"): one EventSource per tab
 * on `/api/events` — the acting org's events as they commit — shared by whatever the page shows.
 * Loaded on demand (auto-refresh.tsx imports it once the page is up), never with the page.
 * Each follower says which changes concern it (the node page: its node; the fleet: any node);
 * a change that concerns any of them refreshes the page once (one `router.refresh()` renders
 * the layout and the page again), at most every 200 ms. While the stream is down the pages poll
 * as before; the browser reopens it by itself.
 */

/** What a stream message says: enough to tell whether a page shows it. */
export type LiveChange = { type: string; nodeId?: string };

type Follower = { concerns: (c: LiveChange) => boolean; refresh: () => void };

const followers = new Set<Follower>();
let source: EventSource | null = null;
let pending: ReturnType<typeof setTimeout> | null = null;

function onChange(e: MessageEvent<string>): void {
  let change: LiveChange;
  try {
    change = JSON.parse(e.data) as LiveChange;
  } catch {
    return;
  }
  const follower = [...followers].find((f) => f.concerns(change));
  if (!follower || pending) return;
  pending = setTimeout(() => {
    pending = null;
    follower.refresh();
  }, 200);
}

function open(): void {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource('/api/events');
  source.addEventListener('change', onChange as EventListener);
  source.onopen = () => markMode('live');
  source.onerror = () => {
    markMode('polling');
    // A 401 (signed out) or 403 closes it for good; a dropped one the browser reopens itself.
    if (source?.readyState === EventSource.CLOSED) {
      source.close();
      source = null;
    }
  };
}

function close(): void {
  source?.close();
  source = null;
  markMode('polling');
}

/**
 * Follows the stream while the caller is mounted.
 * @param concerns whether a change is one the page shows. @param refresh renders the page again.
 * @returns a function that stops following (the stream closes with its last follower).
 */
export function followChanges(concerns: Follower['concerns'], refresh: () => void): () => void {
  const follower = { concerns, refresh };
  followers.add(follower);
  open();
  return () => {
    followers.delete(follower);
    if (followers.size === 0) close();
  };
}

/** Whether the stream is open now. */
export function isLive(): boolean {
  return source?.readyState === EventSource.OPEN;
}
