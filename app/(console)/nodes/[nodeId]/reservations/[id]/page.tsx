import { readFilters, reservationPageQueryInputs, type SearchParams } from '@/components/queries';
import { ReservationView } from '@/components/reservation/reservation-view';
import { ScheduledReclaims } from '@/components/reservation/scheduled-reclaims';
import { ReservationUtilisation } from '@/components/utilisation/reservation-utilisation';
import { reservationHref } from '@/components/links';
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
 * page's actions on it, its orgs' names), the node's running VMs (Reclaim…'s preview), the page
 * of its scheduled reclaims the URL's `schedules` names and the page of its trail its `cursor`
 * names are read here and rendered from these props. The schedules list is rendered here, on the
 * server, and handed to the view: it adds no first-load JS (components/reservation/scheduled-reclaims.tsx).
 */
export default async function ReservationPage({ params, searchParams }: Params) {
  const { nodeId, reservationId } = await idsOf(params);
  const { cursor, schedules: schedulesCursor, window: windowParam } = readFilters(await searchParams, ['cursor', 'schedules', 'window']);
  const window = windowParam === '30d' ? '30d' : '7d';
  const inputs = reservationPageQueryInputs(nodeId, reservationId);
  const queries = {
    reservation: trpc.reservations.get.queryOptions(inputs.reservation),
    node: trpc.nodes.get.queryOptions(inputs.node),
    history: trpc.reservations.history.queryOptions(inputs.history),
    offers: trpc.reservations.offers.queryOptions(inputs.reservation),
    vms: trpc.vms.listForNode.queryOptions(inputs.vms),
    trail: trpc.audit.list.queryOptions(inputs.trail(cursor)),
    schedules: trpc.scheduledReclaims.list.queryOptions(inputs.schedules(schedulesCursor)),
    utilisation: trpc.utilisation.reservation.queryOptions({ nodeId, reservationId, window }),
  };
  await prefetch(queries.reservation, queries.node, queries.history, queries.offers, queries.vms, queries.trail, queries.schedules, queries.utilisation);
  const reservation = prefetched(queries.reservation);
  const offers = prefetched(queries.offers);
  const schedules = prefetched(queries.schedules);
  // This page's address with the schedules' page set (or not), the trail's page kept.
  const hrefWith = (q: { schedules?: string; window: string }) => {
    const query = new URLSearchParams({
      ...(cursor ? { cursor } : {}),
      ...(q.schedules ? { schedules: q.schedules } : {}),
      ...(q.window !== '7d' ? { window: q.window } : {}),
    }).toString();
    return `${reservationHref(nodeId, reservationId)}${query ? `?${query}` : ''}`;
  };
  const schedulesHref = (at: string | undefined) => hrefWith({ schedules: at, window });
  const utilisation = prefetched(queries.utilisation);
  return (
    <ReservationView
      nodeId={nodeId}
      reservation={reservation}
      node={prefetched(queries.node)}
      history={prefetched(queries.history)}
      offers={offers}
      vms={prefetched(queries.vms)}
      trail={prefetched(queries.trail)}
      cursor={cursor}
      utilisation={
        // The reservation's own visibility: when it shows, so does this (a 404 shows the page's own error).
        utilisation.code === 'not_found' ? null : (
          <ReservationUtilisation utilisation={utilisation} window={window} hrefFor={(w) => hrefWith({ schedules: schedulesCursor, window: w })} />
        )
      }
      schedules={
        // Only those the reservation offers reclaim to may read its schedules (an audience org may not): no section, rather than a refusal.
        !offers.data?.actions.includes('reclaim') && (schedules.code === 'forbidden' || !schedules.data) ? null : (
          <ScheduledReclaims
            schedules={schedules}
            canManage={offers.data?.actions.includes('reclaim') ?? false}
            endsAt={reservation.data?.endsAt}
            cursor={schedulesCursor}
            hrefFor={schedulesHref}
          />
        )
      }
    />
  );
}
