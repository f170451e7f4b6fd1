/**
 * `<input type="datetime-local">` speaks the browser's local time, without a zone; the API takes
 * ISO 8601 with one. The conversions the console's date-time fields share.
 */

/** A datetime-local value ("2026-12-09T09:00", the browser's zone) as ISO 8601 UTC; null when it is no date. */
export function localInputToIso(local: string): string | null {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** An instant as a datetime-local value in the browser's zone. */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The browser's time zone by name ("Europe/Berlin", "UTC"), the zone a datetime-local value is in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
