import { WebhooksView } from '@/components/webhooks/webhooks-view';
import { readFilters, webhookAttemptsQueryInput, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'Webhooks · GPU Reservations' };

/**
 * The webhooks page (docs/product.md §5.7, §6): the acting org's endpoints, and — when the URL
 * names one (`?webhook=`) — its delivery log, the page `cursor` names; read here, rendered from props.
 */
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { webhook, cursor } = readFilters(await searchParams, ['webhook', 'cursor']);
  const hooks = trpc.webhooks.list.queryOptions({ limit: 20 });
  const log = webhook ? trpc.webhooks.attempts.queryOptions(webhookAttemptsQueryInput(webhook, cursor)) : null;
  await Promise.all([prefetch(hooks), log ? prefetch(log) : null]);
  return <WebhooksView hooks={prefetched(hooks)} selected={webhook} attempts={log ? prefetched(log) : undefined} cursor={cursor} />;
}
