import { CapacityList } from '@/components/reservation/capacity-list';
import { CAPACITY_DEFAULT_ROLE, capacityQueryInput, readFilters, type SearchParams } from '@/components/queries';
import { reservationRoles } from '@/server/policy';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'My capacity · GPU Reservations' };

/** "My capacity": the URL's role (default: audience), its first page fetched here. */
export default async function CapacityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { role } = readFilters(await searchParams, ['role']);
  await prefetch(trpc.reservations.list.queryOptions(capacityQueryInput(role)));
  // The page's own role first, then the others as the API lists them.
  const roles = [CAPACITY_DEFAULT_ROLE, ...reservationRoles.filter((r) => r !== CAPACITY_DEFAULT_ROLE)];
  return (
    <HydrateClient>
      <CapacityList key={role ?? CAPACITY_DEFAULT_ROLE} role={role} roles={roles} />
    </HydrateClient>
  );
}
