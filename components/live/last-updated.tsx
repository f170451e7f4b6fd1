'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import { freshness, subscribeFreshness } from './freshness';

/** "just now", "12 s ago", "3 min ago". */
function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  return `${Math.floor(s / 60)} min ago`;
}

const serverSnapshot = { updatedAt: null, mode: 'polling' } as const;

/**
 * The header's "Updated …" (docs/product.md §6 "Live"): when the page last rendered from the
 * server, and whether changes arrive live or by polling. Relative, so it needs no time zone; the
 * exact time (UTC) on hover. Empty in the server's render (the page has not been live yet).
 */
export function LastUpdated() {
  const { updatedAt, mode } = useSyncExternalStore(subscribeFreshness, freshness, () => serverSnapshot);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (updatedAt === null) return <span data-testid="last-updated" className="text-xs text-ink-4" />;
  return (
    <span data-testid="last-updated" data-mode={mode} className="text-xs text-ink-3" title={`Last updated ${new Date(updatedAt).toISOString()} (UTC)`}>
      <span aria-hidden className={`mr-1 inline-block size-2 rounded-full ${mode === 'live' ? 'bg-ok' : 'bg-ink-4'}`} />
      Updated {ago(now - updatedAt)} · {mode === 'live' ? 'live' : 'polling'}
    </span>
  );
}
