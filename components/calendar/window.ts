/**
 * The calendar's window (docs/product.md §5.8 "Fleet calendar"): a span (24 h, 7 d, 30 d) from an
 * instant, both in the URL (`span`, `from`), so a reload or a shared link shows the same window.
 * No `from` is "around now": the window starts a quarter of its span before the current hour,
 * so the "now" line shows with what came before and what is coming. Pure: pages and tests share it.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The window presets, their labels and lengths, and the step between the axis' ticks. */
export const calendarSpans = {
  '24h': { label: '24 h', ms: DAY, tick: 3 * HOUR },
  '7d': { label: '7 d', ms: 7 * DAY, tick: DAY },
  '30d': { label: '30 d', ms: 30 * DAY, tick: 5 * DAY },
} as const;
export type CalendarSpan = keyof typeof calendarSpans;
export const DEFAULT_CALENDAR_SPAN: CalendarSpan = '7d';

/** The window a URL names: `from` (ISO) … `to`, `span`, and whether `from` was pinned (else it follows now). */
export type CalendarWindow = { span: CalendarSpan; from: string; to: string; pinned: boolean };

const isSpan = (s: string | undefined): s is CalendarSpan => s !== undefined && Object.hasOwn(calendarSpans, s);

/**
 * The window of the URL's `span` and `from`: an unknown span is the default, and a `from` that is
 * no instant is ignored (the window around now), so a hand-edited URL still shows a calendar.
 */
export function readCalendarWindow(params: { span?: string; from?: string }, now: number): CalendarWindow {
  const span = isSpan(params.span) ? params.span : DEFAULT_CALENDAR_SPAN;
  const { ms } = calendarSpans[span];
  const pinnedAt = params.from ? Date.parse(params.from) : NaN;
  const pinned = !Number.isNaN(pinnedAt);
  const from = pinned ? pinnedAt : Math.floor(now / HOUR) * HOUR - ms / 4;
  return { span, from: new Date(from).toISOString(), to: new Date(from + ms).toISOString(), pinned };
}

/** The `from` of the window a span earlier (`-1`) or later (`1`). */
export function shiftedFrom(w: CalendarWindow, by: -1 | 1): string {
  return new Date(Date.parse(w.from) + by * calendarSpans[w.span].ms).toISOString();
}

/** The axis' ticks: every `tick` of the span from the window's start, the start included, the end not. */
export function calendarTicks(w: CalendarWindow): number[] {
  const from = Date.parse(w.from);
  const { ms, tick } = calendarSpans[w.span];
  return Array.from({ length: Math.ceil(ms / tick) }, (_, i) => from + i * tick);
}

/**
 * Where `[start, end)` lies across the window, in percent of its width, clipped to it; null when
 * it does not meet the window. An open end runs to the window's end.
 */
export function barPosition(w: CalendarWindow, start: string, end: string | undefined): { left: number; width: number } | null {
  const from = Date.parse(w.from);
  const to = Date.parse(w.to);
  const s = Math.max(Date.parse(start), from);
  const e = Math.min(end ? Date.parse(end) : to, to);
  if (e <= s) return null;
  return { left: ((s - from) / (to - from)) * 100, width: ((e - s) / (to - from)) * 100 };
}

/**
 * Lanes for a node's bars: each bar on the first lane whose last bar ended by its start (the bars
 * come sorted by start), so overlapping reservations on one node (on different units) never hide
 * each other. @returns each bar's lane, and how many lanes the row needs (at least one).
 */
export function assignLanes(bars: readonly { startsAt: string; endsAt?: string }[]): { lanes: number[]; count: number } {
  const ends: number[] = [];
  const lanes = bars.map((b) => {
    const start = Date.parse(b.startsAt);
    const end = b.endsAt ? Date.parse(b.endsAt) : Infinity;
    let lane = ends.findIndex((e) => e <= start);
    if (lane === -1) lane = ends.push(end) - 1;
    else ends[lane] = end;
    return lane;
  });
  return { lanes, count: Math.max(1, ends.length) };
}
