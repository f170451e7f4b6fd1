import { ApiKeysView } from '@/components/api-keys/api-keys-view';
import { apiKeysQueryInput, readFilters, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'API keys · GPU Reservations' };

/** The API keys page: the acting org's page of keys the URL's `cursor` names, read here and rendered from these props. */
export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { cursor } = readFilters(await searchParams, ['cursor']);
  const keys = trpc.apiKeys.list.queryOptions(apiKeysQueryInput(cursor));
  await prefetch(keys);
  return <ApiKeysView keys={prefetched(keys)} cursor={cursor} />;
}
