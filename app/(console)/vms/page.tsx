import { filtersKey, readFilters, vmFilterNames, vmsQueryInput, type SearchParams } from '@/components/queries';
import { VmList } from '@/components/vms/vm-list';
import { ListVmsInput } from '@/server/vms/schemas';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'VMs · GPU Reservations' };

/** The VMs page: filters from the URL, their first page fetched here. */
export default async function VmsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const filters = readFilters(await searchParams, vmFilterNames);
  await prefetch(trpc.vms.list.queryOptions(vmsQueryInput(filters)));
  const { status, tier } = ListVmsInput.shape;
  return (
    <HydrateClient>
      <VmList key={filtersKey(filters)} filters={filters} statuses={status.unwrap().options} tiers={tier.unwrap().options} />
    </HydrateClient>
  );
}
