import { FleetTable } from '@/components/fleet-table';
import { fleetFilterNames, fleetQueryInput, filtersKey, readFilters, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'Fleet · GPU Reservations' };

/**
 * The fleet page: the page of nodes the URL names (search, owner, filters, sort, `cursor`) is
 * read here and rendered from these props, so the table is in the first HTML, and so are the
 * owners offered for the owner filter and what the acting org may do (Register node…); the page
 * loads no client data layer.
 */
export default async function FleetPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const filters = readFilters(params, fleetFilterNames);
  const { cursor } = readFilters(params, ['cursor']);
  const queries = {
    nodes: trpc.nodes.list.queryOptions(fleetQueryInput(filters, cursor)),
    fleetActions: trpc.nodes.fleetActions.queryOptions(),
    // What the owner filter offers: owners matching what was typed (or the first ones by name).
    owners: trpc.nodes.owners.queryOptions(filters.owner && filters.owner.length <= 100 ? { q: filters.owner } : {}),
  };
  await prefetch(queries.nodes, queries.fleetActions, queries.owners);
  return (
    <FleetTable
      key={filtersKey(filters)}
      nodes={prefetched(queries.nodes)}
      fleetActions={prefetched(queries.fleetActions)}
      owners={prefetched(queries.owners)}
      filters={filters}
      cursor={cursor}
    />
  );
}
