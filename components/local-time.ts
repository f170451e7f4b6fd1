/**
 * `<input type="datetime-local">` holds a wall time without a zone; the API takes ISO 8601
 * instants. The console reads every date-time field in the zone the person chose (issue 23:
 * UTC, or the browser's zone once they picked "Local time"; never silently the browser's), and
 * labels the field with it: the conversions those fields share. Loaded with the dialogs and
 * forms that have such a field, not with every page.
 */

const parts = new Map<string, Intl.DateTimeFormat>();

/** `t`'s wall time in `zone` to the second, "2026-12-09T09:00:00". */
function wallTimeAt(t: number, zone: string): string {
  let f = parts.get(zone);
  if (!f) {
    // en-US with h23 gives two-digit parts and 00 (never 24) at midnight.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    parts.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(t))) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** How far `zone`'s wall clock is ahead of UTC at `t`, in ms. */
const offsetAt = (t: number, zone: string) => Date.parse(`${wallTimeAt(t, zone)}Z`) - Math.floor(t / 1000) * 1000;

/** An instant as the wall time a datetime-local input shows for it in `zone` ("2026-12-09T09:00"). */
export function isoToWallTime(iso: string, zone: string): string {
  return wallTimeAt(Date.parse(iso), zone).slice(0, 16);
}

/**
 * A wall time read in `zone` ("2026-12-09T09:00", a datetime-local value) as the ISO instant to
 * send; null when it is no date. Where summer time makes a wall time ambiguous it does what
 * Temporal's "compatible" does: a time the clocks skip (Europe/Berlin 2026-03-29 02:30) is read
 * with the offset before the change, so it lands as far after the skip as it was into it (03:30
 * CEST, 01:30Z); a time they show twice (2026-10-25 02:30) is the earlier one (02:30 CEST, 00:30Z).
 */
export function wallTimeToIso(wall: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(wall)) return null;
  const asUtc = Date.parse(`${wall}Z`);
  if (Number.isNaN(asUtc)) return null;
  // A zone changes its offset at most once within a day either side of any real wall time.
  const before = offsetAt(asUtc - 86_400_000, zone);
  const after = offsetAt(asUtc + 86_400_000, zone);
  const fits = [before, after].map((o) => asUtc - o).filter((t) => asUtc - offsetAt(t, zone) === t);
  return new Date(fits.length ? Math.min(...fits) : asUtc - before).toISOString();
}

/**
 * The instant to send for the end of a minute-precision range given as its last minute
 * ("until 21:24" means through 21:24:59.999): the next minute, for an API whose `until` is
 * exclusive (docs/product.md §5: the audit trail's `until`). Null when `wall` is no date.
 */
export function lastMinuteToExclusiveIso(wall: string, zone: string): string | null {
  const iso = wallTimeToIso(wall, zone);
  return iso && new Date(Date.parse(iso) + 60_000).toISOString();
}

/** The inverse: an exclusive end as the last minute it takes in (21:25:00Z → "21:24"; 21:24:30Z → "21:24"). */
export function exclusiveIsoToLastMinute(iso: string, zone: string): string {
  return isoToWallTime(new Date(Date.parse(iso) - 1).toISOString(), zone);
}
