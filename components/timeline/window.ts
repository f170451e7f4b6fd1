/**
 * The timeline's window (docs/product.md §5.8 Node timeline): a zoom preset and where it starts,
 * kept in the page's search params (`tlZoom`, `tlFrom`) so a reload shows the same window.
 * Pure: tested beside it.
 */

export const zooms = { '6h': 6 * 3_600_000, '24h': 24 * 3_600_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type Zoom = keyof typeof zooms;
export const DEFAULT_ZOOM: Zoom = '7d';

export type TimelineWindow = { zoom: Zoom; from: number; to: number };

const isZoom = (z: string | null): z is Zoom => z !== null && Object.hasOwn(zooms, z);

/**
 * The window the search params name, else the default zoom with now a third of the way in
 * (history behind, what is coming ahead: pending reservations, scheduled reclaims).
 */
export function windowFromParams(params: URLSearchParams, now: number): TimelineWindow {
  const raw = params.get('tlZoom');
  const zoom = isZoom(raw) ? raw : DEFAULT_ZOOM;
  const span = zooms[zoom];
  const fromParam = Date.parse(params.get('tlFrom') ?? '');
  const from = Number.isFinite(fromParam) ? fromParam : now - Math.round(span / 3);
  return { zoom, from, to: from + span };
}

/** A new zoom keeps the window's middle where it was. */
export function zoomTo(w: TimelineWindow, zoom: Zoom): TimelineWindow {
  const middle = (w.from + w.to) / 2;
  const from = Math.round(middle - zooms[zoom] / 2);
  return { zoom, from, to: from + zooms[zoom] };
}

/** Prev / next: half a window back or on, so what was at an edge stays in sight. */
export function shift(w: TimelineWindow, direction: -1 | 1): TimelineWindow {
  const by = (direction * zooms[w.zoom]) / 2;
  return { ...w, from: w.from + by, to: w.to + by };
}

/** The search params with the window written in (other params kept). */
export function paramsWith(params: URLSearchParams, w: TimelineWindow): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('tlZoom', w.zoom);
  next.set('tlFrom', new Date(w.from).toISOString());
  return next;
}

/** Where a tick goes on the axis: every hour, 3 hours, day or 5 days, by zoom. */
const tickSteps: Record<Zoom, number> = { '6h': 3_600_000, '24h': 3 * 3_600_000, '7d': 86_400_000, '30d': 5 * 86_400_000 };

/**
 * The axis ticks inside the window, at whole steps of the zone's wall clock (hours: the zone's
 * offset is whole hours almost everywhere; days: midnight in the zone).
 */
export function ticks(w: TimelineWindow, offsetMs: (t: number) => number): number[] {
  const step = tickSteps[w.zoom];
  const out: number[] = [];
  const first = Math.ceil((w.from + offsetMs(w.from)) / step) * step - offsetMs(w.from);
  for (let t = first; t < w.to && out.length < 40; t += step) out.push(t);
  return out;
}
