/**
 * Time on screen (issue 23, docs/product.md §6 "Time on screen"): every absolute time the console
 * shows is formatted here, in the zone the person chose (UTC unless the `tz` cookie names
 * another), and labelled with it: "3 Dec 2026, 09:00 UTC", "3 Dec 2026, 10:00 CET". The label is
 * the zone's short name where English (en-GB) has a name of letters for it (UTC, GMT, BST, CET,
 * CEST, EET…); elsewhere Intl only knows an offset ("GMT-5"), which names no zone, so the IANA
 * name stands instead ("3 Dec 2026, 04:00 America/New_York").
 */

export const UTC = 'UTC';

const formats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone and style, made once: building them is the slow part of Intl. */
function formatter(zone: string, style: 'short' | 'medium' | 'name'): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(
      'en-GB',
      style === 'name' ? { timeZone: zone, timeZoneName: 'short' } : { dateStyle: 'medium', timeStyle: style, timeZone: zone },
    );
    formats.set(key, f);
  }
  return f;
}

/** What a time in `zone` is labelled with at `iso` (the short name changes with summer time): "UTC", "CEST", "America/New_York". */
export function zoneLabel(iso: string, zone: string): string {
  if (zone === UTC) return UTC;
  const name = formatter(zone, 'name')
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName')?.value;
  return name && /^[A-Z]{2,5}$/.test(name) ? name : zone;
}

/**
 * "30 Nov 2026, 14:05 UTC", or in another zone "30 Nov 2026, 15:05 CET": an instant, to the
 * minute (to the second with `seconds`: "30 Nov 2026, 14:05:09 UTC"), labelled with its zone.
 */
export function formatDateTime(iso: string, zone: string = UTC, seconds = false): string {
  return `${formatter(zone, seconds ? 'medium' : 'short').format(new Date(iso))} ${zoneLabel(iso, zone)}`;
}

/**
 * The other zone of a time, for its `title` (shown on hover, no script needed): UTC when the page
 * shows another zone; the browser's own zone (`local`, as the time-zone switch last read it) when
 * the page shows UTC; the instant to the second in UTC when the page knows no other.
 */
export function otherZone(iso: string, zone: string, local: string | undefined): string {
  if (zone !== UTC) return formatDateTime(iso, UTC);
  if (local && local !== UTC) return formatDateTime(iso, local);
  return formatDateTime(iso, UTC, true);
}

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

/**
 * "Terminate 3 spot VMs and reclaim 4 units" (docs/product.md §6), counting only what the
 * reclaim changes: the units it takes off the spot market, the VMs it ends. "Terminate 1 spot
 * VM" when no named unit is on the market (a spot VM that started before the reservation).
 */
export function reclaimLabel(vmCount: number, unitCount: number): string {
  const vms = `Terminate ${vmCount} spot VM${vmCount === 1 ? '' : 's'}`;
  const units = `reclaim ${unitCount} unit${unitCount === 1 ? '' : 's'}`;
  if (unitCount === 0) return vms;
  if (vmCount === 0) return units[0]!.toUpperCase() + units.slice(1);
  return `${vms} and ${units}`;
}

/** "1 Jun 2026, 12:00 UTC → open-ended": a half-open period (docs/product.md §4), in `zone`. */
export function formatPeriod(startsAt: string, endsAt: string | undefined, zone: string = UTC): string {
  return `${formatDateTime(startsAt, zone)} → ${endsAt ? formatDateTime(endsAt, zone) : 'open-ended'}`;
}
