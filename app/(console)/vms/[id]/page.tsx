import { vmPageQueryInput } from '@/components/queries';
import { VmDetail } from '@/components/vm-detail';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'VM · GPU Reservations' };

/** The VM page: the VM is fetched here (as the caller may see it), so it is in the first HTML. */
export default async function VmPage({ params }: { params: Promise<{ id: string }> }) {
  const vmId = decodeURIComponent((await params).id);
  await prefetch(trpc.vms.get.queryOptions(vmPageQueryInput(vmId)));
  return (
    <HydrateClient>
      <VmDetail vmId={vmId} />
    </HydrateClient>
  );
}
