import { ExportDownload, readExportRefused } from '@/components/exports/export-download';
import { filtersKey, readFilters, vmFilterNames, vmsQueryInput, type SearchParams } from '@/components/queries';
import { VmList } from '@/components/vms/vm-list';
import { ListVmsInput } from '@/server/vms/schemas';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'VMs · GPU Reservations' };

/** The VMs page: the page its URL names (filters, `cursor`) is read here and rendered from these props. */
export default async function VmsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const filters = readFilters(params, vmFilterNames);
  const { cursor } = readFilters(params, ['cursor']);
  const vms = trpc.vms.list.queryOptions(vmsQueryInput(filters, cursor));
  await prefetch(vms);
  const { status, tier } = ListVmsInput.shape;
  return (
    <>
      <VmList
        key={filtersKey(filters)}
        filters={filters}
        statuses={status.unwrap().options}
        tiers={tier.unwrap().options}
        vms={prefetched(vms)}
        cursor={cursor}
      />
      <ExportDownload list="vms" filters={filters} now={new Date()} refused={readExportRefused(params)} />
    </>
  );
}
