/**
 * Said when a page's refresh failed and it still shows what it read before (useLastGood): the
 * problem's sentence, and that the data may be out of date. The page tries again by itself.
 */
export function StaleBanner({ error, what }: { error: string; what: string }) {
  return (
    <p role="status" data-testid="refresh-failed" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
      Could not refresh {what}: {error} Showing it as last read; the page tries again by itself.
    </p>
  );
}
