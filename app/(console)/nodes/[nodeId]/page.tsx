import { NodeView } from '@/components/node/node-view';
import { nodePageQueryInputs } from '@/components/queries';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

/** The node page: its grid, reservations and VMs are fetched here, so the grid is in the first HTML. */
export default async function NodePage({ params }: { params: Promise<{ nodeId: string }> }) {
  const nodeId = decodeURIComponent((await params).nodeId);
  const inputs = nodePageQueryInputs(nodeId);
  await prefetch(trpc.nodes.get.queryOptions(inputs.node), trpc.reservations.listForNode.queryOptions(inputs.reservations), trpc.vms.listForNode.queryOptions(inputs.vms));
  return (
    <HydrateClient>
      <NodeView nodeId={nodeId} />
    </HydrateClient>
  );
}
