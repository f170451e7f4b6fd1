/**
 * What an unknown page, node or VM says (docs/product.md §6). A plain link, not next/link,
 * which would put the client router's link code into every page's first load.
 */
export function NotFoundMessage() {
  return (
    <div className="max-w-sm space-y-3 text-center">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-sm text-ink-3">There is no page here, or nothing you may see.</p>
      <a href="/" className="text-sm font-medium text-accent-ink hover:underline">
        Back to the fleet
      </a>
    </div>
  );
}
