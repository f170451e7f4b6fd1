import { CalendarView } from '@/components/calendar/calendar-view';
import { readCalendarWindow } from '@/components/calendar/window';
import { calendarParamNames, calendarQueryInput, fleetFilterNames, readFilters, type SearchParams } from '@/components/queries';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { readTimeZones } from '@/app/(console)/time-zone';

export const metadata = { title: 'Calendar · GPU Reservations' };

/**
 * The fleet calendar (docs/product.md §5.8 "Fleet calendar"): the URL's fleet filters, window
 * (`span`, `from`), view and `cursor` read here, and the Gantt (or its table) rendered on the
 * server from that — a reload or a shared link shows the same calendar, and no chart code ships.
 */
export default async function CalendarPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const filters = readFilters(params, fleetFilterNames);
  const { cursor } = readFilters(params, ['cursor']);
  const { span, from, view } = readFilters(params, calendarParamNames);
  // The window follows the server's clock when the URL pins none; the "now" line is drawn at it.
  const now = Date.now();
  const window = readCalendarWindow({ span, from }, now);
  const queries = {
    calendar: trpc.reservations.calendar.queryOptions(calendarQueryInput(filters, cursor, window)),
    owners: trpc.nodes.owners.queryOptions(filters.owner && filters.owner.length <= 100 ? { q: filters.owner } : {}),
  };
  await prefetch(queries.calendar, queries.owners);
  const { zone } = await readTimeZones();
  return (
    <CalendarView
      calendar={prefetched(queries.calendar)}
      owners={prefetched(queries.owners).data?.items ?? []}
      filters={filters}
      window={window}
      view={view === 'table' ? 'table' : 'chart'}
      cursor={cursor}
      zone={zone}
      now={now}
    />
  );
}
