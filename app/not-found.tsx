export const metadata = { title: 'Not found · GPU Reservations' };

/**
 * Every unknown page and unknown node or VM (docs/product.md §6). Our own rather than Next's
 * default, whose inline `<style>` the Content-Security-Policy (proxy.ts) would block.
 */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-sm space-y-3 text-center">
        <h1 className="text-xl font-semibold">Not found</h1>
        <p className="text-sm text-ink-3">There is no page here, or nothing you may see.</p>
        {/* A plain link: next/link here would put its client code in the root's chunks, loaded by
            every page a second time beside the console layout's copy (≈ 3 kB, docs/first-load-js.md). */}
        <a href="/" className="text-sm font-medium text-accent-ink hover:underline">
          Back to the fleet
        </a>
      </div>
    </main>
  );
}
