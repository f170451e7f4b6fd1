import { FleetTable } from '@/components/fleet-table';
import { fleetQueryInput } from '@/components/queries';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'Fleet · GPU Reservations' };

/**
 * The fleet page: its first page of nodes is fetched here, so the table is in the first HTML,
 * and so is what the acting org may do (Register node…), rather than popping in after a client call.
 */
export default async function FleetPage() {
  await prefetch(trpc.nodes.list.queryOptions(fleetQueryInput()), trpc.nodes.fleetActions.queryOptions());
  return (
    <HydrateClient>
      <FleetTable />
    </HydrateClient>
  );
}
