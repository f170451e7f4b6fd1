import { notFound } from 'next/navigation';
import { NodeView } from '@/components/node/node-view';
import { nodePageQueryInputs } from '@/components/queries';
import { getQueryClient, HydrateClient, prefetch, trpc } from '@/server/trpc/server';

/** The node page: its grid, reservations and VMs are fetched here, so the grid is in the first HTML. */
export default async function NodePage({ params }: { params: Promise<{ nodeId: string }> }) {
  const nodeId = decodeURIComponent((await params).nodeId);
  const inputs = nodePageQueryInputs(nodeId);
  const nodeQuery = trpc.nodes.get.queryOptions(inputs.node);
  await prefetch(nodeQuery, trpc.nodes.actions.queryOptions(inputs.node), trpc.reservations.listForNode.queryOptions(inputs.reservations), trpc.vms.listForNode.queryOptions(inputs.vms));
  // An unknown node is a 404 page, not a grid that keeps asking.
  if (getQueryClient().getQueryState(nodeQuery.queryKey)?.status === 'error') notFound();
  return (
    <HydrateClient>
      <NodeView nodeId={nodeId} />
    </HydrateClient>
  );
}
