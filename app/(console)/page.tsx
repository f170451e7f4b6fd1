import { FleetTable } from '@/components/fleet-table';
import { fleetQueryInput } from '@/components/queries';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'Fleet · GPU Reservations' };

/** The fleet page: its first page of nodes is fetched here, so the table is in the first HTML. */
export default async function FleetPage() {
  await prefetch(trpc.nodes.list.queryOptions(fleetQueryInput()));
  return (
    <HydrateClient>
      <FleetTable />
    </HydrateClient>
  );
}
