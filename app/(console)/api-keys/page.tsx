import { ApiKeysView } from '@/components/api-keys/api-keys-view';
import { apiKeysQueryInput } from '@/components/queries';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'API keys · GPU Reservations' };

/** The API keys page: the acting org's first page of keys is fetched here, so the list is in the first HTML. */
export default async function ApiKeysPage() {
  await prefetch(trpc.apiKeys.list.queryOptions(apiKeysQueryInput()));
  return (
    <HydrateClient>
      <ApiKeysView />
    </HydrateClient>
  );
}
