import { ExportDownload, readExportRefused } from '@/components/exports/export-download';
import { CapacityList } from '@/components/reservation/capacity-list';
import { CAPACITY_DEFAULT_ROLE, capacityQueryInput, readFilters, type SearchParams } from '@/components/queries';
import { reservationRoles } from '@/server/reservations/roles';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'My capacity · GPU Reservations' };

/** "My capacity": the URL's role (default: audience) and `cursor`, that page read here and rendered from these props. */
export default async function CapacityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { role, cursor } = readFilters(params, ['role', 'cursor']);
  const reservations = trpc.reservations.list.queryOptions(capacityQueryInput(role, cursor));
  await prefetch(reservations);
  // The page's own role first, then the others as the API lists them.
  const roles = [CAPACITY_DEFAULT_ROLE, ...reservationRoles.filter((r) => r !== CAPACITY_DEFAULT_ROLE)];
  return (
    <>
      <CapacityList key={role ?? CAPACITY_DEFAULT_ROLE} role={role} roles={roles} reservations={prefetched(reservations)} cursor={cursor} />
      <ExportDownload list="reservations" filters={{ role: role ?? CAPACITY_DEFAULT_ROLE }} now={new Date()} refused={readExportRefused(params)} />
    </>
  );
}
