import Link from 'next/link';
import type { CSSProperties } from 'react';
import { fleetFilterFields } from '../fleet-filters';
import { formatDateTime, formatPeriod } from '../format';
import { nodeHref, reservationHref } from '../links';
import { offers } from '../offers';
import type { FleetFilters } from '../queries';
import type { Fetched, RouterOutputs } from '../trpc-types';
import { UrlFilters } from '../ui/url-filters';
import { UrlPager } from '../ui/url-pager';
import { stripes } from '../unit-grid/unit-styles';
import { BarDetails } from './bar-details';
import { assignLanes, barPosition, calendarSpans, calendarTicks, shiftedFrom, type CalendarSpan, type CalendarWindow } from './window';

type Calendar = RouterOutputs['reservations']['calendar'];
type CalendarNode = Calendar['items'][number];
type Bar = CalendarNode['reservations'][number];
type Status = Bar['status'];

/** Each status' colour and its non-colour cue (the word in the bar and the legend; pending's dashed edge, needs-review's stripes). */
const statusStyles: Record<Status, { label: string; className: string; style?: CSSProperties }> = {
  active: { label: 'active', className: 'border-unit-reserved-line bg-unit-reserved text-unit-reserved-ink' },
  pending: { label: 'pending (ahead)', className: 'border-dashed border-accent-line bg-accent-soft text-accent-ink' },
  'needs-review': { label: 'needs review', className: 'border-unit-withheld-line bg-unit-withheld text-unit-withheld-ink', style: stripes },
  expired: { label: 'ended', className: 'border-line-strong bg-surface-3 text-ink-3' },
  cancelled: { label: 'cancelled', className: 'border-line bg-surface-2 text-ink-4' },
};
const shownStatuses = ['active', 'pending', 'needs-review', 'expired'] as const satisfies readonly Status[];

const LANE_PX = 30;
const tickFormats: Record<string, Intl.DateTimeFormat> = {};

/** An axis label in `zone`: the hour within a day's window, the day beyond. */
function tickLabel(t: number, span: CalendarSpan, zone: string): string {
  const key = `${span}|${zone}`;
  const f = (tickFormats[key] ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    ...(span === '24h' ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short' }),
  }));
  return f.format(new Date(t));
}

/** Who the reservation is for: its audience by name (ids where a name is unknown). */
const customerOf = (r: Bar) => (r.audience.length ? r.audience.map((a) => a.name || a.id).join(', ') : 'no audience');

/** A bar's details in words, in the console's zone: its link's accessible name and what hovering or focusing it shows. */
function barWords(node: CalendarNode, r: Bar, zone: string): string {
  const released = r.released.reduce((n, s) => Math.max(n, s.units), 0);
  return [
    `${r.id} on ${node.name}`,
    statusStyles[r.status].label,
    `${r.units} ${r.units === 1 ? 'unit' : 'units'}`,
    `for ${customerOf(r)}`,
    formatPeriod(r.startsAt, r.endsAt, zone),
    ...(released ? [`up to ${released} released`] : []),
  ].join(' · ');
}

/** The URL of this page with `changes` applied (undefined removes a parameter); paging restarts unless a cursor is given. */
function hrefWith(params: Readonly<Record<string, string | undefined>>, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...params, cursor: undefined, ...changes })) if (v) next.set(k, v);
  const q = next.toString();
  return q ? `/calendar?${q}` : '/calendar';
}

const pill = 'rounded-md border px-2.5 py-1 text-sm';
const pillOn = `${pill} border-accent bg-accent text-on-accent`;
const pillOff = `${pill} border-line-strong bg-surface hover:bg-surface-2`;

/** One node's row of the Gantt: its name, then its bars on lanes across the window. */
function NodeRow({ node, window, zone, now }: { node: CalendarNode; window: CalendarWindow; zone: string; now: number }) {
  const { lanes, count } = assignLanes(node.reservations);
  const nowAt = barPosition(window, new Date(now).toISOString(), new Date(now + 1).toISOString());
  return (
    <div role="row" data-node-id={node.id} className="flex border-b border-line-soft last:border-b-0">
      <div role="rowheader" className="sticky left-0 z-10 w-28 shrink-0 border-r border-line bg-surface px-3 py-1.5 text-sm sm:w-48">
        <Link href={nodeHref(node.id)} className="font-medium text-accent-ink hover:underline [overflow-wrap:anywhere]">
          {node.name}
        </Link>
        <div className="truncate font-mono text-[11px] text-ink-4">{node.id}</div>
        {node.truncated && (
          <div className="text-[11px] text-warn-ink" data-testid="calendar-truncated">
            More than shown: narrow the window
          </div>
        )}
      </div>
      <div role="cell" className="relative grow" style={{ height: count * LANE_PX + 8 }}>
        {nowAt && <div aria-hidden className="absolute inset-y-0 w-0.5 bg-danger" style={{ left: `${nowAt.left}%` }} />}
        {node.reservations.map((r, i) => {
          const at = barPosition(window, r.startsAt, r.endsAt);
          if (!at) return null;
          const style = statusStyles[r.status];
          const words = barWords(node, r, zone);
          return (
            <Link
              key={r.id}
              href={reservationHref(node.id, r.id)}
              aria-label={words}
              data-details={words}
              data-reservation-id={r.id}
              data-status={r.status}
              className={`absolute flex items-center overflow-hidden rounded border px-1 text-[11px] leading-none font-medium whitespace-nowrap hover:brightness-95 ${style.className}`}
              style={{ ...style.style, left: `${at.left}%`, width: `max(${at.width}%, 6px)`, top: 4 + lanes[i]! * LANE_PX, height: LANE_PX - 6 }}
            >
              <span aria-hidden className="truncate">
                {r.id} · {r.units}u
              </span>
              {r.released.map((s, k) => {
                const band = barPosition(
                  { ...window, from: r.startsAt < window.from ? window.from : r.startsAt, to: r.endsAt && r.endsAt < window.to ? r.endsAt : window.to },
                  s.startsAt,
                  s.endsAt,
                );
                return band ? (
                  <span
                    key={k}
                    aria-hidden
                    className="absolute bottom-0 h-1 bg-unit-released-line"
                    style={{ left: `${band.left}%`, width: `${band.width}%` }}
                  />
                ) : null;
              })}
            </Link>
          );
        })}
      </div>
    </div>
  );
}

/** The Gantt: an axis of ticks in the console's zone, a row per node, a "now" line; scrolls inside itself on a narrow screen. */
function Gantt({ calendar, window, zone, now }: { calendar: Calendar; window: CalendarWindow; zone: string; now: number }) {
  const ticks = calendarTicks(window);
  return (
    <BarDetails>
      <div
        className="overflow-x-auto rounded-xl border border-line bg-surface shadow-sm"
        tabIndex={0}
        aria-label="Reservation calendar, scrolls sideways"
        role="region"
      >
        <div role="table" aria-label={`Reservations by node, ${formatPeriod(window.from, window.to, zone)}`} className="min-w-[44rem]">
          <div role="row" className="flex border-b border-line bg-surface-2 text-xs text-ink-4">
            <div role="columnheader" className="sticky left-0 z-10 w-28 shrink-0 border-r border-line bg-surface-2 px-3 py-1.5 font-medium uppercase sm:w-48">
              Node
            </div>
            <div role="columnheader" className="relative h-7 grow">
              {ticks.map((t) => (
                <span
                  key={t}
                  className="absolute top-1.5 border-l border-line-strong pl-1 whitespace-nowrap"
                  style={{ left: `${barPosition(window, new Date(t).toISOString(), undefined)!.left}%` }}
                >
                  {tickLabel(t, window.span, zone)}
                </span>
              ))}
            </div>
          </div>
          {calendar.items.map((n) => (
            <NodeRow key={n.id} node={n} window={window} zone={zone} now={now} />
          ))}
          {calendar.items.length === 0 && <p className="px-4 py-6 text-sm text-ink-3">No nodes match.</p>}
        </div>
      </div>
    </BarDetails>
  );
}

/** The same data as a table, for keyboards and screen readers (and for copying). */
function CalendarTable({ calendar, zone }: { calendar: Calendar; zone: string }) {
  const rows = calendar.items.flatMap((n): { n: CalendarNode; r?: Bar }[] => (n.reservations.length ? n.reservations.map((r) => ({ n, r })) : [{ n }]));
  const th = 'px-3 py-2 text-left font-medium';
  const td = 'px-3 py-2 align-top';
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-surface shadow-sm">
      <table className="w-full min-w-[48rem] text-sm">
        <caption className="sr-only">Reservations by node in the window</caption>
        <thead className="border-b border-line bg-surface-2 text-xs uppercase tracking-wide text-ink-4">
          <tr>
            {['Node', 'Reservation', 'Status', 'Units', 'For', 'Starts', 'Ends', 'Released'].map((h) => (
              <th key={h} scope="col" className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ n, r }) => (
            <tr key={`${n.id}/${r?.id ?? ''}`} data-node-id={n.id} data-reservation-id={r?.id} className="border-b border-line-soft last:border-b-0">
              <th scope="row" className={`${td} text-left font-normal whitespace-nowrap`}>
                <Link href={nodeHref(n.id)} className="text-accent-ink hover:underline">
                  {n.name}
                </Link>
              </th>
              {r ? (
                <>
                  <td className={td}>
                    <Link href={reservationHref(n.id, r.id)} className="font-mono whitespace-nowrap text-accent-ink hover:underline">
                      {r.id}
                    </Link>
                  </td>
                  <td className={td}>{statusStyles[r.status].label}</td>
                  <td className={`${td} tabular-nums`}>{r.units}</td>
                  <td className={td}>{customerOf(r)}</td>
                  <td className={`${td} whitespace-nowrap`}>{formatDateTime(r.startsAt, zone)}</td>
                  <td className={`${td} whitespace-nowrap`}>{r.endsAt ? formatDateTime(r.endsAt, zone) : 'open-ended'}</td>
                  <td className={`${td} min-w-64`}>
                    {r.released.length ? r.released.map((s) => `${s.units} from ${formatPeriod(s.startsAt, s.endsAt, zone)}`).join('; ') : '—'}
                  </td>
                </>
              ) : (
                <td className={`${td} text-ink-4`} colSpan={7}>
                  No reservation you may see in the window.
                </td>
              )}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td className={`${td} text-ink-3`} colSpan={8}>
                No nodes match.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The fleet calendar page (docs/product.md §5.8 "Fleet calendar", §6): a Gantt by node of the
 * reservations the acting org may see over a window (24 h, 7 d, 30 d; earlier / later), filtered
 * like the fleet (its own filters and words), paged over nodes, or the same data as a table.
 * Rendered on the server from the URL, so it ships no chart code: only the filters, the pager and
 * the few lines that show a hovered or focused bar's details are client code.
 */
export function CalendarView(props: {
  calendar: Fetched<Calendar>;
  owners: readonly { id: string; name: string }[];
  filters: FleetFilters;
  window: CalendarWindow;
  view: 'chart' | 'table';
  cursor: string | undefined;
  zone: string;
  now: number;
}) {
  const { calendar, filters, window, view, zone } = props;
  const page = calendar.data;
  const params = { ...filters, span: window.span, from: window.pinned ? window.from : undefined, view: view === 'table' ? 'table' : undefined };
  const keep = { span: params.span, from: params.from, view: params.view };
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold" {...offers('calendar.page')}>
          Calendar
        </h1>
        <p className="text-sm text-ink-3">The reservations you may see, by node, over time.</p>
      </div>
      <UrlFilters fields={fleetFilterFields(props.owners)} values={filters} errors={calendar.errors} keep={keep} />
      <div className="flex flex-wrap items-center gap-2" data-testid="calendar-window">
        <nav aria-label="Window" className="flex flex-wrap gap-1">
          {(Object.keys(calendarSpans) as CalendarSpan[]).map((s) => (
            <Link
              key={s}
              href={hrefWith(params, { span: s, from: undefined })}
              aria-current={s === window.span ? 'true' : undefined}
              className={s === window.span ? pillOn : pillOff}
            >
              {calendarSpans[s].label}
            </Link>
          ))}
        </nav>
        <div className="flex gap-1">
          <Link href={hrefWith(params, { from: shiftedFrom(window, -1) })} className={pillOff}>
            ← Earlier
          </Link>
          <Link href={hrefWith(params, { from: undefined })} className={pillOff}>
            Now
          </Link>
          <Link href={hrefWith(params, { from: shiftedFrom(window, 1) })} className={pillOff}>
            Later →
          </Link>
        </div>
        {page && (
          <p className="text-sm text-ink-2" data-testid="calendar-total">
            {page.total}
            {page.totalCapped ? '+' : ''} {page.total === 1 && !page.totalCapped ? 'node matches' : 'nodes match'} ·
          </p>
        )}
        <p className="text-sm text-ink-2" data-testid="calendar-period">
          {formatPeriod(window.from, window.to, zone)}
        </p>
        <nav aria-label="View" className="flex gap-1 sm:ml-auto">
          <Link
            href={hrefWith(params, { view: undefined, cursor: props.cursor })}
            aria-current={view === 'chart' ? 'true' : undefined}
            className={view === 'chart' ? pillOn : pillOff}
          >
            Chart
          </Link>
          <Link
            href={hrefWith(params, { view: 'table', cursor: props.cursor })}
            aria-current={view === 'table' ? 'true' : undefined}
            className={view === 'table' ? pillOn : pillOff}
          >
            Table
          </Link>
        </nav>
      </div>
      {calendar.error && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{calendar.error}</p>}
      {page && (view === 'table' ? <CalendarTable calendar={page} zone={zone} /> : <Gantt calendar={page} window={window} zone={zone} now={props.now} />)}
      <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 rounded-lg border border-line bg-surface px-4 py-3 text-xs text-ink-3">
        {shownStatuses.map((s) => (
          <li key={s} className="flex items-center gap-1.5">
            <span aria-hidden className={`inline-block h-3 w-6 rounded-sm border ${statusStyles[s].className}`} style={statusStyles[s].style} />
            {statusStyles[s].label}
          </li>
        ))}
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-1 w-6 bg-unit-released-line" />
          units released to spot
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-3 w-0.5 bg-danger" />
          now
        </li>
      </ul>
      {page && <UrlPager cursor={props.cursor} nextCursor={page.nextCursor} />}
    </div>
  );
}
