import { notFound } from 'next/navigation';
import { vmPageQueryInput } from '@/components/queries';
import { VmDetail } from '@/components/vm-detail';
import { getQueryClient, HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'VM · GPU Reservations' };

/** The VM page: the VM is fetched here (as the caller may see it), so it is in the first HTML. */
export default async function VmPage({ params }: { params: Promise<{ id: string }> }) {
  const vmId = decodeURIComponent((await params).id);
  const vmQuery = trpc.vms.get.queryOptions(vmPageQueryInput(vmId));
  await prefetch(vmQuery);
  // An unknown (or invisible) VM is a 404 page, as an unknown node is.
  if (getQueryClient().getQueryState(vmQuery.queryKey)?.status === 'error') notFound();
  return (
    <HydrateClient>
      <VmDetail vmId={vmId} />
    </HydrateClient>
  );
}
