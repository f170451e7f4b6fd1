import 'server-only';
import type { TimeZones } from '@/components/time-zone';
import { cookies } from 'next/headers';

/**
 * The time-zone preference (issue 23, docs/product.md §6 "Time on screen"): the `tz` cookie
 * names the zone pages show times in, an IANA name ("Europe/Berlin"); absent or not a zone this
 * runtime knows, UTC. `tz-local` keeps the browser's own zone as the switch last read it, so a
 * page in UTC can show it on hover.
 */
export const ZONE_COOKIE = 'tz';
export const LOCAL_ZONE_COOKIE = 'tz-local';

let known: Set<string> | undefined;
/** `name` when it is an IANA zone (`Intl.supportedValuesOf('timeZone')`, which leaves UTC out), else undefined. */
export function knownZone(name: string | undefined | null): string | undefined {
  if (!name || name.length > 64) return undefined;
  if (name === 'UTC' || name === 'Etc/UTC') return 'UTC';
  known ??= new Set(Intl.supportedValuesOf('timeZone'));
  return known.has(name) ? name : undefined;
}

/** The zones the cookies name, for the console layout to hand to every time on the page. */
export async function readTimeZones(): Promise<TimeZones> {
  const jar = await cookies();
  const local = knownZone(jar.get(LOCAL_ZONE_COOKIE)?.value);
  // A browser in UTC has no other zone to show on hover.
  return { zone: knownZone(jar.get(ZONE_COOKIE)?.value) ?? 'UTC', ...(local && local !== 'UTC' && { local }) };
}
