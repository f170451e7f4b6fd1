import { readFilters, type SearchParams } from '@/components/queries';
import { UtilisationRollup } from '@/components/utilisation/utilisation-rollup';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'Utilisation · GPU Reservations' };

/** The Utilisation page: the acting org's roll-up per relation over the URL's `window` (7d, the default, or 30d), read here and rendered from these props. */
export default async function UtilisationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { window: windowParam } = readFilters(await searchParams, ['window']);
  const window = windowParam === '30d' ? '30d' : '7d';
  const rollup = trpc.utilisation.rollup.queryOptions({ window });
  await prefetch(rollup);
  return <UtilisationRollup rollup={prefetched(rollup)} window={window} />;
}
