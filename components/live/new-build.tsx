'use client';

/**
 * What an open page does when a new build answers its refresh (components/live/connection.ts,
 * docs/reliability.md "A deploy under an open page"), loaded only then: whether the page holds
 * work a reload would lose, and the notice it shows instead of reloading.
 */

/** What a reload would lose: an open dialog, a result on screen, or text typed into a field still shown. */
function workInHand(typed: ReadonlySet<EventTarget | null>): boolean {
  if (document.querySelector('dialog[open],[data-testid="outcome-banner"]')) return true;
  return [...typed].some((field) => field instanceof HTMLElement && field.isConnected && !!(field as HTMLInputElement).value);
}

/** A render of the page shown (a refresh), not of another (a navigation the person asked for, which goes ahead). */
export function isRefresh(input: RequestInfo | URL): boolean {
  const url = new URL(String(input), location.href);
  url.searchParams.delete('_rsc');
  return url.pathname + url.search === location.pathname + location.search;
}

/**
 * Whether the page holds off this render of a new build (and stays as it is) rather than let Next
 * reload it: a refresh while there is work in hand.
 * @param typed the fields typed into since the page loaded.
 */
export function holdsOff(input: RequestInfo | URL, typed: ReadonlySet<EventTarget | null>): boolean {
  return isRefresh(input) && workInHand(typed);
}

/** The quiet notice: the page stays as it was read, the person reloads when ready. */
export function NewBuildNotice() {
  return (
    <div role="status" data-testid="new-version" className="sticky top-0 z-50 bg-info-soft px-6 py-2 text-center text-sm text-info-ink shadow">
      A new version is available — this page stays as it is, with what you typed, until you{' '}
      <button type="button" onClick={() => location.reload()} className="font-semibold underline">
        Reload
      </button>
    </div>
  );
}
