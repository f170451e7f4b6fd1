import 'server-only';
import { fetchedMessage } from '@/components/problem-words';
import { prefetchedAsServed, type Prefetched } from '@/server/trpc/server';

export { prefetch, trpc } from '@/server/trpc/server';

/**
 * What a page's prefetched query answered (server/trpc/server.tsx), its problem said for a
 * person (docs/product.md §6 "errors in words"): fields by their labels, no schema paths,
 * cursors or codes. Said here, on the server, once for every page: each region that shows a
 * page's read — the stale banner, a page's own error, a list's — shows these words, and no
 * page carries the label tables in its first-load JS to say them itself. `errors[]` stays as
 * the API gave it, for the filters to put each beside its field. A page with time filters passes
 * the `zone` it reads them in (the `tz` cookie's), which their labels name.
 */
export function prefetched<T>(q: Parameters<typeof prefetchedAsServed<T>>[0], zone?: string): Prefetched<T> {
  const read = prefetchedAsServed(q);
  return read.error === undefined ? read : { ...read, error: fetchedMessage(read, zone) };
}
