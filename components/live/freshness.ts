/**
 * How fresh the view is (docs/product.md §6 "Live"): when the page last rendered from the server,
 * and whether changes reach it live (the event stream is open) or by polling. A tab-wide store,
 * read by the header's "Updated …" (components/live/last-updated.tsx) and written by the pages'
 * refreshes (auto-refresh.tsx) and the stream (event-stream.ts). Tiny on purpose: it is in every
 * page's first load; the stream's own module is not.
 */
export type Freshness = { updatedAt: number | null; mode: 'live' | 'polling' };

let state: Freshness = { updatedAt: null, mode: 'polling' };
const listeners = new Set<() => void>();

export function subscribeFreshness(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function freshness(): Freshness {
  return state;
}

function set(next: Partial<Freshness>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/** The page rendered from the server now (its first render, or a refresh that finished). */
export function markUpdated(at: number = Date.now()): void {
  set({ updatedAt: at });
}

/** The event stream opened (`live`) or dropped (`polling`: the pages poll until it is back). */
export function markMode(mode: Freshness['mode']): void {
  if (state.mode !== mode) set({ mode });
}
