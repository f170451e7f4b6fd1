import { directDatabaseUrl } from '@/db/client';
import postgres from 'postgres';

/*
 * Wakes long-polling feed requests when events for their org commit (docs/product.md §5.7). One
 * LISTEN connection per process on DATABASE_DIRECT_URL — a transaction-mode pooler keeps no
 * session for LISTEN — fed by the NOTIFY each writer sends once its events committed
 * (server/events/notify.ts), whose payload names the recipient orgs. A waiting request holds no pooled connection: it re-reads the feed when
 * woken, or after at most a second, so a lost notification (a reconnect) delays an answer by a
 * second at most and correctness never rests on it.
 */

/** Whose events a waiter waits for: one org's, or those of any org a test says (the webhook dispatcher's). */
type Whose = string | ((orgId: string) => boolean);

type Waiter = { whose: Whose; wake: () => void };

const concerns = (w: Waiter, orgs: Set<string> | null) =>
  !orgs || (typeof w.whose === 'string' ? orgs.has(w.whose) : [...orgs].some((o) => (w.whose as (orgId: string) => boolean)(o)));

type Listener = { waiters: Set<Waiter>; sql: postgres.Sql | null; started: Promise<void> | null };

const globalForEvents = globalThis as unknown as { __eventsListeners?: Map<string, Listener> };

function listenerFor(url: string): Listener {
  const all = (globalForEvents.__eventsListeners ??= new Map());
  let l = all.get(url);
  if (!l) all.set(url, (l = { waiters: new Set(), sql: null, started: null }));
  return l;
}

function wakeMatching(l: Listener, payload: string): void {
  const orgs = payload === '*' ? null : new Set(payload.split(','));
  for (const w of l.waiters) if (concerns(w, orgs)) w.wake();
}

function start(l: Listener, url: string): Promise<void> {
  l.started ??= (async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { TimeZone: 'UTC', application_name: 'events-listen' }, connect_timeout: 3 });
    l.sql = sql;
    // onlisten runs on every (re)connect: what committed while it was away is read by everyone.
    await sql.listen(
      'events',
      (payload) => wakeMatching(l, payload),
      () => wakeMatching(l, '*'),
    );
  })().catch((e: unknown) => {
    // The poll below still answers; the next wait tries to listen again.
    l.started = null;
    if (process.env.NODE_ENV !== 'test') console.warn('[events] LISTEN failed; long polls re-read every second', e);
  });
  return l.started;
}

/**
 * Waits until events for `whose` (an org id, or a test of org ids) may have committed, or `ms`
 * pass, whichever is first. Holds no database connection of the pool meanwhile.
 */
export async function waitForEvents(whose: Whose, ms: number): Promise<void> {
  const url = directDatabaseUrl();
  if (ms <= 0) return;
  if (!url) return new Promise((resolve) => setTimeout(resolve, ms));
  const l = listenerFor(url);
  await start(l, url);
  await new Promise<void>((resolve) => {
    const waiter: Waiter = {
      whose,
      wake: () => {
        clearTimeout(timer);
        l.waiters.delete(waiter);
        resolve();
      },
    };
    const timer = setTimeout(waiter.wake, ms);
    l.waiters.add(waiter);
  });
}

/** A waiter that keeps a wake: see `eventsWaiter`. */
export type EventsWaiter = {
  /** Resolves true when woken (or a wake came since the last wait), false after `ms`. */
  wait: (ms: number) => Promise<boolean>;
  close: () => void;
};

/**
 * A standing waiter for a loop that works between waits (the webhook dispatcher): a NOTIFY that
 * comes while the loop is busy is remembered and ends its next wait at once, where
 * `waitForEvents` — registered only while it waits — would miss it and sleep its full time.
 */
export function eventsWaiter(whose: Whose): EventsWaiter {
  const url = directDatabaseUrl();
  let pending = false;
  let closed = false;
  let resolveWait: ((woken: boolean) => void) | null = null;
  const waiter: Waiter = {
    whose,
    wake: () => {
      if (resolveWait) resolveWait(true);
      else pending = true;
    },
  };
  const l = url ? listenerFor(url) : null;
  l?.waiters.add(waiter);
  return {
    wait: async (ms) => {
      if (l && url) await start(l, url);
      if (closed) return false;
      if (pending || ms <= 0) {
        const woken = pending;
        pending = false;
        return woken;
      }
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        const done = (woken: boolean) => {
          clearTimeout(timer);
          resolveWait = null;
          resolve(woken);
        };
        resolveWait = done;
      });
    },
    close: () => {
      closed = true;
      l?.waiters.delete(waiter);
      resolveWait?.(false);
    },
  };
}

/** Closes this process's LISTEN connections (tests; a server keeps its own until it exits). */
export async function stopEventsListeners(): Promise<void> {
  const all = globalForEvents.__eventsListeners;
  if (!all) return;
  for (const l of all.values()) {
    for (const w of l.waiters) w.wake();
    await l.sql?.end({ timeout: 1 });
  }
  all.clear();
}
