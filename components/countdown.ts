import { formatDateTime, UTC } from './format';

// Apart from components/format.ts, which every page loads: only the pages that show a scheduled
// reclaim's deadline load these (docs/first-load-js.md).

/** "2 h 5 min", "3 days 4 h", "1 min": the time left until `iso`, rounded up to the minute; "due now" once it has come. */
export function formatCountdown(iso: string, now: number = Date.now()): string {
  const minutes = Math.ceil((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'due now';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor(minutes / 60) % 24;
  if (days) return `${days} day${days === 1 ? '' : 's'}${hours ? ` ${hours} h` : ''}`;
  return hours ? `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}` : `${minutes} min`;
}

/**
 * A scheduled reclaim's deadline in words (issue 22): "reclaim in 2 h 5 min" within a day, else
 * "reclaim at 9 Dec 2026, 09:00 UTC" (in `zone`); "reclaim due now" once its time has passed, since the run
 * may land a moment after it and until then nothing pretends it did.
 */
export function reclaimIn(iso: string, now: number = Date.now(), zone: string = UTC): string {
  const left = Date.parse(iso) - now;
  if (left <= 0) return 'reclaim due now';
  return left < 86_400_000 ? `reclaim in ${formatCountdown(iso, now)}` : `reclaim at ${formatDateTime(iso, zone)}`;
}
