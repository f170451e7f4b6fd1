/**
 * Time on screen (issue 23, docs/product.md §6 "Time on screen"): every absolute time the console
 * shows is formatted here, in the zone the person chose (UTC unless the `tz` cookie names
 * another), and labelled with it: "3 Dec 2026, 09:00 UTC", "3 Dec 2026, 10:00 CET". The label is
 * the zone's short name where English (en-GB) has a name of letters for it (UTC, GMT, BST, CET,
 * CEST, EET…); elsewhere Intl only knows an offset ("GMT-5"), which names no zone, so the IANA
 * name stands instead ("3 Dec 2026, 04:00 America/New_York").
 */

export const UTC = 'UTC';

const formats: Record<string, Intl.DateTimeFormat> = {};

/**
 * "30 Nov 2026, 14:05 UTC", or in another zone "30 Nov 2026, 15:05 CET": an instant, to the
 * minute, labelled with its zone (its short name changes with summer time: CET, CEST).
 */
export function formatDateTime(iso: string, zone: string = UTC): string {
  // One formatter per zone, made once: building them is the slow part of Intl.
  const f = (formats[zone] ??= new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: zone,
  }));
  // An offset ("GMT-5", "GMT+5:30") names no zone: the IANA name does.
  return f.format(new Date(iso)).replace(/GMT[+-].*/, zone);
}

/**
 * The other zone of a time, for its `title` (shown on hover, no script needed): UTC when the page
 * shows another zone; the browser's own zone (`local`, as the time-zone switch last read it; the
 * layout drops it when it is UTC) when the page shows UTC; else the exact instant, ISO 8601.
 */
export const otherZone = (iso: string, zone: string, local: string | undefined): string =>
  zone !== UTC ? formatDateTime(iso, UTC) : local ? formatDateTime(iso, local) : iso;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 hours ago", "in 2 days" relative to `now`. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

/** "1 Jun 2026, 12:00 UTC → open-ended": a half-open period (docs/product.md §4), in `zone`. */
export function formatPeriod(startsAt: string, endsAt: string | undefined, zone: string = UTC): string {
  return `${formatDateTime(startsAt, zone)} → ${endsAt ? formatDateTime(endsAt, zone) : 'open-ended'}`;
}
