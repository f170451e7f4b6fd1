'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useCallback, useEffect } from 'react';

/** How often an outage page tries again by itself. */
const OUTAGE_RETRY_MS = 5_000;

/**
 * The console's error page. A 503 `service_unavailable` (the database unreachable,
 * docs/product.md §5 Errors) keeps its digest through production builds, so an outage reads as
 * one — with a retry, also made by itself every OUTAGE_RETRY_MS, so a page left open (which
 * refreshes by rendering again, and lands here when the database is gone) comes back when the
 * database does — instead of a bug; anything else is a failure the log holds. It says nothing
 * of the failure itself and uses no inline style (the Content-Security-Policy blocks it).
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const outage = error.digest === 'service_unavailable';
  const retry = useCallback(
    () =>
      startTransition(() => {
        router.refresh();
        reset();
      }),
    [router, reset],
  );
  useEffect(() => {
    if (!outage) return;
    const timer = setInterval(retry, OUTAGE_RETRY_MS);
    return () => clearInterval(timer);
  }, [outage, retry]);
  return (
    <main className="mx-auto max-w-xl px-6 py-16" role="alert" data-testid={outage ? 'service-unavailable' : 'page-error'}>
      <h1 className="text-xl font-semibold">{outage ? 'The service is unavailable' : 'Something went wrong'}</h1>
      <p className="mt-3 text-ink-3">
        {outage
          ? 'The console cannot reach its database right now. Nothing on this page was changed. It tries again every few seconds, or retry now.'
          : 'The page failed to load. The failure has been logged; retry, or come back later.'}
      </p>
      <button type="button" onClick={retry} className="mt-6 rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2">
        Retry
      </button>
    </main>
  );
}
