import { readFilters, reservationPageQueryInputs, type SearchParams } from '@/components/queries';
import { ReservationView } from '@/components/reservation/reservation-view';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { decodeParam } from '@/app/(console)/route-params';

type Params = { params: Promise<{ nodeId: string; id: string }>; searchParams: Promise<SearchParams> };

async function idsOf(params: Params['params']) {
  const p = await params;
  return { nodeId: decodeParam(p.nodeId), reservationId: decodeParam(p.id) };
}

export async function generateMetadata({ params }: Params) {
  return { title: `${(await idsOf(params)).reservationId} · Reservation · GPU Reservations` };
}

/**
 * The reservation page: the reservation, its node's grid, its history, what it offers (the node
 * page's actions on it, its orgs' names), the node's running VMs (Reclaim…'s preview) and the page
 * of its trail the URL's `cursor` names are read here and rendered from these props.
 */
export default async function ReservationPage({ params, searchParams }: Params) {
  const { nodeId, reservationId } = await idsOf(params);
  const { cursor } = readFilters(await searchParams, ['cursor']);
  const inputs = reservationPageQueryInputs(nodeId, reservationId);
  const queries = {
    reservation: trpc.reservations.get.queryOptions(inputs.reservation),
    node: trpc.nodes.get.queryOptions(inputs.node),
    history: trpc.reservations.history.queryOptions(inputs.history),
    offers: trpc.reservations.offers.queryOptions(inputs.reservation),
    vms: trpc.vms.listForNode.queryOptions(inputs.vms),
    trail: trpc.audit.list.queryOptions(inputs.trail(cursor)),
  };
  await prefetch(queries.reservation, queries.node, queries.history, queries.offers, queries.vms, queries.trail);
  return (
    <ReservationView
      nodeId={nodeId}
      reservation={prefetched(queries.reservation)}
      node={prefetched(queries.node)}
      history={prefetched(queries.history)}
      offers={prefetched(queries.offers)}
      vms={prefetched(queries.vms)}
      trail={prefetched(queries.trail)}
      cursor={cursor}
    />
  );
}
