'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useContext } from 'react';
import { PageRefreshContext } from './auto-refresh';

/**
 * After a change: everything the page shows may differ now. Re-renders its server components
 * (every console page renders from what its server page read) — through the page's own refresh
 * where it has one (PageRefreshContext), so the page says "Refreshing…" until the new render
 * arrives; client state (a selection, an open dialog) is kept.
 */
export function useRefreshPage(): () => Promise<void> {
  const router = useRouter();
  const pageRefresh = useContext(PageRefreshContext);
  return useCallback(async () => (pageRefresh ?? router.refresh)(), [router, pageRefresh]);
}
