import { notFound } from 'next/navigation';
import { NodeView } from '@/components/node/node-view';
import { nodePageQueryInputs } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { decodeParam } from '@/app/(console)/route-params';

/**
 * The node page: its grid, reservations and VMs are read here and rendered from these props,
 * so the grid is in the first HTML and the page loads no client data layer (NodeView refreshes
 * it by re-rendering this page).
 */
export default async function NodePage({ params }: { params: Promise<{ nodeId: string }> }) {
  const nodeId = decodeParam((await params).nodeId);
  const inputs = nodePageQueryInputs(nodeId);
  const queries = {
    node: trpc.nodes.get.queryOptions(inputs.node),
    actions: trpc.nodes.actions.queryOptions(inputs.node),
    reservations: trpc.reservations.listForNode.queryOptions(inputs.reservations),
    vms: trpc.vms.listForNode.queryOptions(inputs.vms),
  };
  await prefetch(queries.node, queries.actions, queries.reservations, queries.vms);
  const node = prefetched(queries.node);
  // An unknown node — or an id no node can have — is a 404 page, not a grid that keeps asking;
  // any other failure (a refresh over the rate limit, a database blip) is shown beside what the
  // page already shows.
  if (node.code === 'not_found' || node.code === 'invalid_request') notFound();
  return (
    <NodeView
      nodeId={nodeId}
      node={node}
      actions={prefetched(queries.actions)}
      reservations={prefetched(queries.reservations)}
      vms={prefetched(queries.vms)}
      readAt={Date.now()}
    />
  );
}
