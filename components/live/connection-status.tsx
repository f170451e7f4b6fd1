'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { holdRendersWhileOffline, isConnectionLost, newBuildNotice, subscribeConnection } from './connection';

/** Whether the server is unreachable now; false in the server's render. */
export function useConnectionLost(): boolean {
  return useSyncExternalStore(subscribeConnection, isConnectionLost, () => false);
}

/**
 * The console's "Reconnecting…" (docs/product.md §6): installs the hold on page renders
 * (components/live/connection.ts) for the tab, and says so while the server is gone. Shown
 * above the page, which keeps what it shows (an open dialog and typed text included) until the
 * server answers again; then it goes away by itself and the page renders again. After a deploy
 * that the page held off (connection.ts), a quiet "A new version is available — Reload" instead.
 */
export function ConnectionStatus() {
  useEffect(holdRendersWhileOffline, []);
  const lost = useConnectionLost();
  // Loaded with what a new build's answer needs (connection.ts), never with the page.
  const NewBuild = useSyncExternalStore(subscribeConnection, newBuildNotice, () => null);
  // Rendered only while it has something to say: a page's own status messages stay the only ones otherwise.
  if (!lost && NewBuild) return <NewBuild />;
  if (!lost) return null;
  return (
    <div
      role="status"
      data-testid="connection-status"
      className="sticky top-0 z-50 bg-warn-soft-2 px-6 py-2 text-center text-sm font-medium text-warn-ink shadow"
    >
      Reconnecting… The server cannot be reached; this page keeps what it shows and updates again once it is back.
    </div>
  );
}
