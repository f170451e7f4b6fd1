import { reservationPageQueryInputs } from '@/components/queries';
import { ReservationView } from '@/components/reservation/reservation-view';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

type Params = { params: Promise<{ nodeId: string; id: string }> };

async function idsOf(params: Params['params']) {
  const p = await params;
  return { nodeId: decodeURIComponent(p.nodeId), reservationId: decodeURIComponent(p.id) };
}

export async function generateMetadata({ params }: Params) {
  return { title: `${(await idsOf(params)).reservationId} · Reservation · GPU Reservations` };
}

/** The reservation page: the reservation, its node's grid, its history and its trail's first page are fetched here. */
export default async function ReservationPage({ params }: Params) {
  const { nodeId, reservationId } = await idsOf(params);
  const inputs = reservationPageQueryInputs(nodeId, reservationId);
  await prefetch(
    trpc.reservations.get.queryOptions(inputs.reservation),
    trpc.nodes.get.queryOptions(inputs.node),
    trpc.reservations.history.queryOptions(inputs.history),
    trpc.audit.list.queryOptions(inputs.trail()),
  );
  return (
    <HydrateClient>
      <ReservationView nodeId={nodeId} reservationId={reservationId} />
    </HydrateClient>
  );
}
