'use client';

import { useRouter } from 'next/navigation';
import { useCallback } from 'react';

/**
 * After a change: everything the page shows may differ now. Re-renders its server components
 * (every console page renders from what its server page read); the page updates in place
 * when the new render arrives, client state (a selection, an open dialog) kept.
 */
export function useRefreshPage(): () => Promise<void> {
  const router = useRouter();
  return useCallback(async () => router.refresh(), [router]);
}
