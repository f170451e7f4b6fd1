'use client';

import type { ComponentType } from 'react';
import type * as NewBuild from './new-build';

/**
 * Whether the console can reach its server, and what a page does while it cannot
 * (docs/product.md §6 "An open page survives the server"). Next's router falls back to a browser
 * navigation when a render it fetched (a refresh, a link) fails — with the server gone, that is
 * the browser's own error page, which never comes back by itself. So the page's render fetches
 * are held instead: one that fails for want of a server waits until the server answers again
 * and is then sent again, and the router never learns it failed; what the page shows, an open
 * dialog and typed text stay as they are. Meanwhile the page says "Reconnecting…"
 * (ConnectionStatus), and the server is asked every RETRY_MS whether it is back.
 */

/**
 * A deploy under an open page (docs/reliability.md): a render a new build answers makes Next
 * reload the tab (its build no longer matches the page's JS), which would drop an open dialog and
 * typed text. So a refresh that a new build answers while the page holds work in hand — a dialog
 * open, text typed, a result on screen — is held too, for good, and so is every later refresh:
 * the page stays as it is and says a new version is available, and the person reloads when
 * ready. With nothing in hand, Next reloads into the new build by itself, as a navigation to
 * another page always does.
 */
const MY_BUILD = process.env.CONSOLE_DEPLOYMENT_ID;
const RETRY_MS = 1_000;
/** A static file outside the proxy and the database: answers as soon as the server listens. */
const PROBE_URL = '/icon.svg';
/** What a gateway in front of a missing server answers (a deploy, a load balancer). */
const GATEWAY_DOWN = new Set([502, 503, 504]);

type Listener = () => void;
const listeners = new Set<Listener>();
let lost = false;
/** What to do of a new build (./new-build.tsx), once one answered while the page held work in hand. */
let newBuild: typeof NewBuild | null = null;
/** The fields typed into since the page loaded (./new-build.tsx: a controlled field's DOM keeps no trace of it). */
const typed = new Set<EventTarget | null>();
let back: Promise<void> | null = null;
let original: typeof fetch | null = null;

/** Whether the server is unreachable now (useSyncExternalStore's snapshot). */
export function isConnectionLost(): boolean {
  return lost;
}

/** Calls `listener` whenever the connection is lost or comes back. @returns its unsubscribe. */
export function subscribeConnection(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The notice to show once a new build answered while the page held work in hand, else null (useSyncExternalStore's snapshot). */
export function newBuildNotice(): ComponentType | null {
  return newBuild?.NewBuildNotice ?? null;
}

const notify = () => listeners.forEach((l) => l());

function setLost(value: boolean) {
  if (lost === value) return;
  lost = value;
  notify();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Marks the connection lost; @returns a promise that settles once the server answers again. */
function waitForServer(): Promise<void> {
  setLost(true);
  back ??= (async () => {
    for (;;) {
      await sleep(RETRY_MS);
      try {
        await original!(PROBE_URL, { method: 'HEAD', cache: 'no-store' });
        break;
      } catch {
        // still gone
      }
    }
    back = null;
    setLost(false);
  })();
  return back;
}

/** A render of a page that Next's router fetches for a refresh or a navigation (not a prefetch, not a server action). */
function isPageRender(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  if (input instanceof Request || (init?.method ?? 'GET').toUpperCase() !== 'GET') return false;
  const headers = new Headers(init?.headers);
  if (headers.get('rsc') !== '1' || headers.has('next-router-prefetch') || headers.has('next-router-segment-prefetch')) return false;
  return new URL(String(input), location.href).origin === location.origin;
}

const isRender = (res: Response) => (res.headers.get('content-type') ?? '').startsWith('text/x-component');

/**
 * Installs the hold on the tab's `fetch`, once. Every other request goes through untouched;
 * one that fails for want of a server still marks the connection lost (a dialog's call, a
 * prefetch), so the page says so, but is not sent again: a dialog's own call shows its error
 * and is the user's to repeat.
 */
export function holdRendersWhileOffline(): void {
  if (original) return;
  document.addEventListener('input', (e) => typed.add(e.target), true);
  original = window.fetch.bind(window);
  const send = original;
  window.fetch = async (input, init) => {
    const held = isPageRender(input, init);
    // Held off once, the page stays as it is: its later refreshes are not even sent.
    if (held && newBuild?.isRefresh(input)) return new Promise<Response>(() => {});
    for (;;) {
      let res: Response;
      try {
        res = await send(input, init);
      } catch (error) {
        // An abort is the router's own doing (a newer navigation): never hold it.
        if (init?.signal?.aborted || !(error instanceof TypeError)) throw error;
        const server = waitForServer();
        if (!held) throw error;
        await server;
        continue;
      }
      if (held && GATEWAY_DOWN.has(res.status) && !isRender(res)) {
        await waitForServer();
        continue;
      }
      if (lost) setLost(false);
      // What to do of a new build loads only when one answers (./new-build.tsx).
      if (held && MY_BUILD && res.headers.get('x-nextjs-deployment-id') !== MY_BUILD && isRender(res)) {
        const found = await import('./new-build');
        if (found.holdsOff(input, typed)) {
          newBuild = found;
          notify();
          // Never answered: the router keeps the page (a navigation still goes ahead, discarding it).
          return new Promise<Response>(() => {});
        }
      }
      return res;
    }
  };
}
