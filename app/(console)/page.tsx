import { FleetTable } from '@/components/fleet-table';
import { fleetQueryInput, readFilters, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'Fleet · GPU Reservations' };

/**
 * The fleet page: the page of nodes the URL names (`owner`, `cursor`) is read here and
 * rendered from these props, so the table is in the first HTML, and so is what the acting org
 * may do (Register node…); the page loads no client data layer.
 */
export default async function FleetPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { owner, cursor } = readFilters(await searchParams, ['owner', 'cursor'] as const);
  const queries = { nodes: trpc.nodes.list.queryOptions(fleetQueryInput(cursor, owner)), fleetActions: trpc.nodes.fleetActions.queryOptions() };
  await prefetch(queries.nodes, queries.fleetActions);
  return <FleetTable nodes={prefetched(queries.nodes)} fleetActions={prefetched(queries.fleetActions)} owner={owner ?? ''} cursor={cursor} />;
}
