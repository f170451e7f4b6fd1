'use client';

import { createContext, useContext, type ReactNode } from 'react';
import { formatDateTime, formatRelative, otherZone, UTC } from './format';

/**
 * The zone this page shows times in (issue 23, docs/product.md §6 "Time on screen"): UTC, or the
 * zone the `tz` cookie names once the person picked "Local time". The console layout reads the
 * cookie on the server and hands it down here, so the server's HTML and the hydrated page show
 * the same text. `local` is the browser's zone as the header's switch last read it, if ever: the
 * other zone a UTC page shows on hover.
 */
export type TimeZones = { zone: string; local?: string };

const TimeZoneContext = createContext<TimeZones>({ zone: UTC });

/** Hands the zones the layout read from the cookies to every time below it. */
export function TimeZoneProvider({ zones, children }: { zones: TimeZones; children: ReactNode }) {
  return <TimeZoneContext.Provider value={zones}>{children}</TimeZoneContext.Provider>;
}

/** The zones of this page, for a component that formats a time into a sentence (`formatDateTime(iso, zone)`). */
export const useTimeZone = (): TimeZones => useContext(TimeZoneContext);

/**
 * An instant on screen: "3 Dec 2026, 10:00 CET" in the page's zone, inside
 * `<time dateTime="…ISO…">`, the other zone in its `title` (shown on hover, no script needed).
 * `relative` shows "3 hours ago" instead, and `children` any other words for it ("reclaim in
 * 2 h"); the absolute time then leads the title. Such words count from the clock of whoever
 * renders them, and the server's and the browser's may differ by a moment.
 */
export function Time({ iso, relative, children, className }: { iso: string; relative?: boolean; children?: ReactNode; className?: string }) {
  const { zone, local } = useTimeZone();
  const other = otherZone(iso, zone, local);
  const words = children ?? (relative ? formatRelative(iso) : undefined);
  return (
    <time
      dateTime={iso}
      title={words === undefined ? other : `${formatDateTime(iso, zone)} (${other})`}
      className={className}
      suppressHydrationWarning={words !== undefined}
    >
      {words ?? formatDateTime(iso, zone)}
    </time>
  );
}

/**
 * The browser's zone ("Europe/Berlin"), as a hidden field of the header's time-zone switch: set
 * once the page is interactive, so the "Local time" button sends it; the server knows no other
 * way to learn it.
 */
export function LocalZoneField() {
  return (
    <input
      type="hidden"
      name="local"
      ref={(el) => {
        if (el) el.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
      }}
    />
  );
}
