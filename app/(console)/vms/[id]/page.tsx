import { vmPageQueryInput } from '@/components/queries';
import { VmDetail } from '@/components/vm-detail';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { decodeParam } from '@/app/(console)/route-params';

export const metadata = { title: 'VM · GPU Reservations' };

/** The VM page: the VM, its actions and its reclaim's reason are read here (as the caller may see them) and rendered from these props. */
export default async function VmPage({ params }: { params: Promise<{ id: string }> }) {
  const vmId = decodeParam((await params).id);
  const detail = trpc.vms.detail.queryOptions(vmPageQueryInput(vmId));
  await prefetch(detail);
  return <VmDetail detail={prefetched(detail)} />;
}
