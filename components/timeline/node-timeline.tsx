'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { formatDateTime } from '../format';
import { problemOf } from '../problem';
import { errorMessage } from '../problem-words';
import { useTimeZone } from '../time-zone';
import { useTRPC } from '../trpc-provider';
import type { RouterOutputs } from '../trpc-types';
import { stripes } from '../unit-grid/unit-styles';
import { paramsWith, shift, ticks, windowFromParams, zooms, zoomTo, type TimelineWindow, type Zoom } from './window';

type Timeline = RouterOutputs['nodes']['timeline'];
type Item = Timeline['items'][number];
type TimelineEvent = Timeline['events'][number];

/** A bar's look: the grid's state colours (app/globals.css `unit-*` tokens, both themes) and its words. */
const kindStyles = {
  reserved: { label: 'Reserved', cell: 'bg-unit-reserved border-unit-reserved-line' },
  released: { label: 'Released to spot', cell: 'bg-unit-released border-unit-released-line' },
  'needs-review': { label: 'Needs review (withheld)', cell: 'bg-unit-withheld border-unit-withheld-line' },
  'vm-spot': { label: 'Spot VM', cell: 'bg-unit-spot-occupied border-unit-spot-occupied-line' },
  'vm-reserved': { label: 'Reserved-tier VM', cell: 'bg-unit-reserved-occupied border-unit-reserved-occupied-line' },
  'vm-on-demand': { label: 'On-demand VM', cell: 'bg-unit-occupied border-unit-occupied-line' },
} as const;
type BarKind = keyof typeof kindStyles;

// Shapes, not font glyphs (a glyph the system font lacks draws as a box): filled diamond, hollow
// dashed diamond, circle — told apart without colour too.
const eventStyles = {
  reclaim: { label: 'Reclaim', mark: 'rotate-45 rounded-[1px] bg-danger-solid border border-danger-solid', line: 'border-danger-solid' },
  'scheduled-reclaim': {
    label: 'Scheduled reclaim',
    mark: 'rotate-45 rounded-[1px] border-2 border-dashed border-danger-solid bg-surface',
    line: 'border-danger-solid border-dashed',
  },
  topology: { label: 'Topology change', mark: 'rounded-full border-2 border-ink-2 bg-surface', line: 'border-ink-3 border-dotted' },
} as const;

function EventMark({ kind }: { kind: keyof typeof eventStyles }) {
  return <span aria-hidden className={`inline-block h-2.5 w-2.5 ${eventStyles[kind].mark}`} />;
}

/** Each kind's lane in a unit's row: reservations on top, releases under them, VMs below. */
const lanes: Record<Item['kind'], number> = { reserved: 0, 'needs-review': 0, released: 1, vm: 2 };
const LANE_PX = 12;
const ROW_PX = LANE_PX * 3 + 4;
/** The chart never draws narrower than this: a phone scrolls it inside the section. */
const TRACK_MIN_PX = 640;

const zoomLabels: Record<Zoom, string> = { '6h': '6 h', '24h': '24 h', '7d': '7 d', '30d': '30 d' };

/** The zone's offset from UTC at `t` in ms, from Intl (no library): where the axis's whole hours and midnights fall. */
function zoneOffset(zone: string): (t: number) => number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  return (t) => {
    const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
    return wall - Math.floor(t / 60_000) * 60_000;
  };
}

/**
 * The node's capacity timeline (docs/product.md §5.8 Node timeline, §6): one row per unit, bars
 * per interval the acting org may see, coloured like the grid, pending ones dashed; a "now"
 * line; markers for reclaims, scheduled reclaims and topology changes; zoom presets and prev /
 * next (the window in the URL); details on hover and keyboard focus; and the same data as a
 * table. Loaded on demand with its data layer (components/timeline/timeline-section.tsx).
 */
export function NodeTimeline({ nodeId }: { nodeId: string }) {
  const trpc = useTRPC();
  const { zone } = useTimeZone();
  const [w, setW] = useState<TimelineWindow>(() => windowFromParams(new URLSearchParams(window.location.search), Date.now()));
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [focused, setFocused] = useState<string | null>(null);
  const query = useQuery({
    ...trpc.nodes.timeline.queryOptions({ nodeId, from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() }),
    placeholderData: keepPreviousData,
  });

  const change = (next: TimelineWindow) => {
    performance.mark('timeline:change');
    setW(next);
    setFocused(null);
    // The window in the URL, so a reload keeps it; replaceState, not the router: nothing on the server changes.
    window.history.replaceState(window.history.state, '', `?${paramsWith(new URLSearchParams(window.location.search), next).toString()}`);
  };

  const data = query.data;
  const fresh = data && Date.parse(data.from) === w.from && Date.parse(data.to) === w.to;
  // Bars painted for this window: the mark the bench reads (scripts/bench/timeline.ts).
  useLayoutEffect(() => {
    if (!fresh) return;
    const id = requestAnimationFrame(() => performance.mark('timeline:painted'));
    return () => cancelAnimationFrame(id);
  }, [fresh, data, view]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Timeline window">
        <div className="inline-flex rounded-md border border-line-strong" role="group" aria-label="Zoom">
          {(Object.keys(zooms) as Zoom[]).map((z) => (
            <button
              key={z}
              type="button"
              aria-pressed={w.zoom === z}
              onClick={() => change(zoomTo(w, z))}
              className={`px-2.5 py-1 text-sm first:rounded-l-md last:rounded-r-md ${w.zoom === z ? 'bg-accent text-on-accent' : 'bg-surface hover:bg-surface-2'}`}
            >
              {zoomLabels[z]}
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={() => change(shift(w, -1))}
          className="rounded-md border border-line-strong bg-surface px-2.5 py-1 text-sm hover:bg-surface-2"
        >
          ← Earlier
        </button>
        <button
          type="button"
          onClick={() => change(shift(w, 1))}
          className="rounded-md border border-line-strong bg-surface px-2.5 py-1 text-sm hover:bg-surface-2"
        >
          Later →
        </button>
        <button
          type="button"
          onClick={() => change(zoomTo({ ...w, from: Date.now() - zooms[w.zoom] / 2, to: Date.now() + zooms[w.zoom] / 2 }, w.zoom))}
          className="rounded-md border border-line-strong bg-surface px-2.5 py-1 text-sm hover:bg-surface-2"
        >
          Now
        </button>
        <button
          type="button"
          aria-pressed={view === 'table'}
          onClick={() => setView(view === 'table' ? 'chart' : 'table')}
          className="ml-auto rounded-md border border-line-strong bg-surface px-2.5 py-1 text-sm hover:bg-surface-2"
          data-testid="timeline-table-toggle"
        >
          {view === 'table' ? 'Chart' : 'Table'}
        </button>
      </div>
      <p className="text-xs text-ink-3" data-testid="timeline-window">
        {formatDateTime(new Date(w.from).toISOString(), zone)} → {formatDateTime(new Date(w.to).toISOString(), zone)}
        {query.isFetching && <span className="ml-2 text-ink-4">Loading…</span>}
      </p>
      {query.error && !data && (
        <p className="rounded-md border border-danger-line bg-danger-soft p-3 text-sm text-danger-ink">{errorMessage(problemOf(query.error))}</p>
      )}
      {data && (view === 'chart' ? <Chart data={data} w={w} zone={zone} focused={focused} onFocus={setFocused} /> : <TimelineTable data={data} zone={zone} />)}
      {data?.truncated && <p className="text-xs text-warn-ink">More intervals than one view holds: the earliest 5,000 are shown; zoom in to see the rest.</p>}
    </div>
  );
}

function barKind(item: Item, vmTier: Map<string, string>): BarKind {
  if (item.kind !== 'vm') return item.kind;
  const tier = vmTier.get(item.vmId ?? '');
  return tier === 'spot' ? 'vm-spot' : tier === 'reserved' ? 'vm-reserved' : 'vm-on-demand';
}

/** Who an item is for, in words: the reservation and its orgs, or the VM, its tier and (where shown) its org. */
function useWho(data: Timeline) {
  return useMemo(() => {
    const reservations = new Map(data.reservations.map((r) => [r.id, r]));
    const vms = new Map(data.vms.map((v) => [v.id, v]));
    const name = (id: string) => data.orgNames[id] ?? id;
    const who = (i: Item): string => {
      if (i.kind === 'vm') {
        const vm = vms.get(i.vmId ?? '');
        const org = vm?.orgId ? ` of ${name(vm.orgId)}` : '';
        return `VM ${i.vmId} (${vm?.tier ?? 'vm'}${org})${i.reservationId ? ` on reservation ${i.reservationId}` : ''}`;
      }
      const r = reservations.get(i.reservationId ?? '');
      if (!r) return `Reservation ${i.reservationId}`;
      const audience = r.allowedOrgIds.length ? ` for ${r.allowedOrgIds.map(name).join(', ')}` : '';
      const managing = r.managingOrgIds.length ? `, managed by ${r.managingOrgIds.map(name).join(', ')}` : '';
      return `Reservation ${r.id} (${r.status})${audience}${managing}`;
    };
    return { who, vmTier: new Map(data.vms.map((v) => [v.id, v.tier])) };
  }, [data]);
}

const when = (iso: string | null, zone: string) => (iso ? formatDateTime(iso, zone) : 'no end known');

function itemWords(i: Item, who: (i: Item) => string, zone: string, now: string, style: string): string {
  const ahead = i.startsAt > now ? ' · ahead (pending)' : '';
  const ended = i.endedBy ? ` · ended by ${i.endedBy}` : i.open ? '' : '';
  return `${i.unitId}: ${style} — ${who(i)} · ${when(i.startsAt, zone)} → ${when(i.endsAt, zone)}${ahead}${ended}`;
}

function eventWords(e: TimelineEvent, zone: string): string {
  const at = formatDateTime(e.at, zone);
  if (e.kind === 'topology') return `Topology change to generation ${e.gen} · ${at}`;
  const of = e.reservationId ? ` of reservation ${e.reservationId}` : '';
  return `${eventStyles[e.kind].label}${of}: ${e.unitIds.join(', ')} · ${at}`;
}

function Chart(props: { data: Timeline; w: TimelineWindow; zone: string; focused: string | null; onFocus: (key: string | null) => void }) {
  const { data, w, zone, focused, onFocus } = props;
  const { who, vmTier } = useWho(data);
  const span = w.to - w.from;
  const pct = (t: number) => `${(Math.min(Math.max(t - w.from, 0), span) / span) * 100}%`;
  const byUnit = useMemo(() => {
    const m = new Map<string, Item[]>(data.units.map((u) => [u.id, []]));
    for (const i of data.items) m.get(i.unitId)?.push(i);
    return m;
  }, [data]);
  const offset = useMemo(() => zoneOffset(zone), [zone]);
  const axis = ticks(w, offset);
  const tickFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(
        'en-GB',
        w.zoom === '6h' || w.zoom === '24h' ? { hour: '2-digit', minute: '2-digit', timeZone: zone } : { day: 'numeric', month: 'short', timeZone: zone },
      ),
    [w.zoom, zone],
  );
  const now = Date.parse(data.now);
  const details = new Map<string, string>();
  data.items.forEach((i, n) => details.set(`i${n}`, itemWords(i, who, zone, data.now, kindStyles[barKind(i, vmTier)].label)));
  data.events.forEach((e, n) => details.set(`e${n}`, eventWords(e, zone)));
  const [pinned, setPinned] = useState<string | null>(null);
  useEffect(() => setPinned(null), [data]);
  const shown = focused ?? pinned;
  const focus = (key: string) => ({
    onMouseEnter: () => onFocus(key),
    onMouseLeave: () => onFocus(null),
    onFocus: () => onFocus(key),
    onBlur: () => onFocus(null),
    onClick: () => setPinned(key),
  });

  return (
    <div>
      <Legend />
      <div className="relative mt-2 max-w-full overflow-x-auto rounded-md border border-line" data-testid="timeline-chart">
        <div className="grid grid-cols-[4.5rem_minmax(0,1fr)]" style={{ minWidth: TRACK_MIN_PX }}>
          {/* The axis and the event markers' row. */}
          <div className="sticky left-0 z-10 border-b border-line bg-surface px-2 py-1 text-xs text-ink-4">Unit</div>
          <div className="relative h-10 border-b border-line bg-surface-2" aria-label="Events" role="group">
            {axis.map((t) => (
              <span key={t} className="absolute top-0 -translate-x-1/2 whitespace-nowrap text-[10px] text-ink-3" style={{ left: pct(t) }} aria-hidden>
                {tickFormat.format(t)}
              </span>
            ))}
            {data.events.map((e, n) => (
              <button
                key={`e${n}`}
                type="button"
                data-testid="timeline-event"
                data-kind={e.kind}
                aria-label={details.get(`e${n}`)}
                className="absolute bottom-0.5 flex h-5 w-5 -translate-x-1/2 items-center justify-center rounded hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-focus"
                style={{ left: pct(Date.parse(e.at)) }}
                {...focus(`e${n}`)}
              >
                <EventMark kind={e.kind} />
              </button>
            ))}
          </div>
          {data.units.map((u) => (
            <UnitRow key={u.id} unitId={u.id} state={u.state}>
              {(byUnit.get(u.id) ?? []).map((i) => {
                const n = data.items.indexOf(i);
                const start = Date.parse(i.startsAt);
                const end = i.endsAt ? Date.parse(i.endsAt) : w.to;
                const kind = barKind(i, vmTier);
                const pending = start > now;
                return (
                  <button
                    key={n}
                    type="button"
                    data-testid="timeline-bar"
                    data-kind={i.kind}
                    data-pending={pending || undefined}
                    aria-label={details.get(`i${n}`)}
                    className={`absolute rounded-sm border ${kindStyles[kind].cell} ${pending ? 'border-2 border-dashed opacity-75' : ''} ${shown === `i${n}` ? 'ring-2 ring-focus' : ''} focus-visible:outline-2 focus-visible:outline-focus`}
                    style={{
                      left: pct(start),
                      width: `max(3px, calc(${pct(end)} - ${pct(start)}))`,
                      top: 2 + lanes[i.kind] * LANE_PX,
                      height: LANE_PX - 2,
                      ...(i.kind === 'needs-review' || pending ? stripes : {}),
                    }}
                    {...focus(`i${n}`)}
                  />
                );
              })}
            </UnitRow>
          ))}
        </div>
        {/* Lines over the tracks: now, and each event (pointer-events none: the bars stay hoverable). */}
        <div className="pointer-events-none absolute inset-y-0 right-0 left-[4.5rem]" style={{ minWidth: TRACK_MIN_PX - 72 }} aria-hidden>
          {now >= w.from && now < w.to && (
            <div className="absolute inset-y-0 border-l-2 border-accent" style={{ left: pct(now) }} data-testid="timeline-now">
              <span className="absolute top-0 left-1 rounded bg-accent px-1 text-[10px] font-semibold text-on-accent">now</span>
            </div>
          )}
          {data.events.map((e, n) => (
            <div key={n} className={`absolute top-10 bottom-0 border-l ${eventStyles[e.kind].line}`} style={{ left: pct(Date.parse(e.at)) }} />
          ))}
        </div>
      </div>
      <p className="mt-2 min-h-10 rounded-md bg-surface-2 px-3 py-2 text-sm text-ink-2" aria-live="polite" data-testid="timeline-details">
        {shown ? details.get(shown) : 'Point at a bar or a marker, or move to it with Tab, for its details.'}
      </p>
      {data.items.length === 0 && (
        <p className="mt-1 text-xs text-ink-4">Nothing you may see happened on this node in this window; the units show their states now.</p>
      )}
    </div>
  );
}

function UnitRow({ unitId, state, children }: { unitId: string; state: string; children: React.ReactNode }) {
  return (
    <>
      <div
        className="sticky left-0 z-10 flex items-center border-b border-line-soft bg-surface px-2 font-mono text-xs"
        style={{ height: ROW_PX }}
        title={`Now: ${state}`}
      >
        {unitId}
      </div>
      <div className="relative border-b border-line-soft" style={{ height: ROW_PX }} data-testid="timeline-row" data-unit={unitId}>
        {children}
      </div>
    </>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-2" aria-label="Timeline legend">
      {Object.entries(kindStyles).map(([k, s]) => (
        <li key={k} className="flex items-center gap-1.5">
          <span className={`inline-block h-3 w-6 rounded-sm border ${s.cell}`} style={k === 'needs-review' ? stripes : undefined} aria-hidden />
          {s.label}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span
          className="inline-block h-3 w-6 rounded-sm border-2 border-dashed border-unit-reserved-line bg-unit-reserved opacity-75"
          style={stripes}
          aria-hidden
        />
        Ahead (pending)
      </li>
      {Object.entries(eventStyles).map(([k, s]) => (
        <li key={k} className="flex items-center gap-1.5">
          <EventMark kind={k as keyof typeof eventStyles} />
          {s.label}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span aria-hidden className="inline-block h-3 border-l-2 border-accent" />
        Now
      </li>
    </ul>
  );
}

/**
 * One of the timeline's tables: a keyboard-focusable scroll region (axe scrollable-region-focusable:
 * a table wider than a phone scrolls inside it), a caption, column headers, and a row saying so
 * when there is nothing to show.
 */
function ScrollTable({
  label,
  testId,
  caption,
  headers,
  empty,
  children,
}: {
  label: string;
  testId: string;
  caption: ReactNode;
  headers: readonly string[];
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <div className="relative max-w-full overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="mb-2 text-left text-sm text-ink-3">{caption}</caption>
        <thead className="text-xs uppercase tracking-wide text-ink-4">
          <tr>
            {headers.map((h) => (
              <th key={h} scope="col" className="py-2 pr-4 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line-soft">
          {children}
          {empty !== null && (
            <tr>
              <td colSpan={headers.length} className="py-2 text-ink-4">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The same data as an accessible table (docs/product.md §6): one row per interval, then the events. */
function TimelineTable({ data, zone }: { data: Timeline; zone: string }) {
  const { who, vmTier } = useWho(data);
  const window = `${formatDateTime(data.from, zone)} to ${formatDateTime(data.to, zone)}`;
  return (
    <div className="space-y-4">
      <ScrollTable
        label="Timeline intervals"
        testId="timeline-table"
        caption={`Intervals on node ${data.nodeId} from ${window}`}
        headers={['Unit', 'What', 'Who', 'From', 'To', 'Ended by']}
        empty={data.items.length === 0 ? 'No intervals you may see in this window.' : null}
      >
        {data.items.map((i, n) => (
          <tr key={n} data-testid="timeline-table-row">
            <th scope="row" className="py-1.5 pr-4 font-mono font-normal whitespace-nowrap">
              {i.unitId}
            </th>
            <td className="py-1.5 pr-4">
              {kindStyles[barKind(i, vmTier)].label}
              {i.startsAt > data.now ? ' (ahead)' : ''}
            </td>
            <td className="py-1.5 pr-4">{who(i)}</td>
            <td className="py-1.5 pr-4 whitespace-nowrap">{when(i.startsAt, zone)}</td>
            <td className="py-1.5 pr-4 whitespace-nowrap">{when(i.endsAt, zone)}</td>
            <td className="py-1.5 pr-4">{i.endedBy ?? (i.open ? 'open' : '—')}</td>
          </tr>
        ))}
      </ScrollTable>
      <ScrollTable
        label="Timeline events"
        testId="timeline-events-table"
        caption={`Events on node ${data.nodeId} from ${window}`}
        headers={['When', 'Event']}
        empty={data.events.length === 0 ? 'No events you may see in this window.' : null}
      >
        {data.events.map((e, n) => (
          <tr key={n}>
            <th scope="row" className="py-1.5 pr-4 font-normal whitespace-nowrap">
              {formatDateTime(e.at, zone)}
            </th>
            <td className="py-1.5 pr-4">{eventWords(e, zone)}</td>
          </tr>
        ))}
      </ScrollTable>
    </div>
  );
}
