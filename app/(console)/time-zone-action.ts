'use server';

import { buildCookieOptions } from '@/server/auth/cookie-options';
import { getSiteUrl } from '@/server/auth/site';
import { cookies } from 'next/headers';
import { knownZone, LOCAL_ZONE_COOKIE, ZONE_COOKIE } from './time-zone';

const YEAR_S = 365 * 86_400;

/**
 * The header's time-zone switch (issue 23, docs/product.md §6 "Time on screen"): `show=utc`
 * shows UTC, `show=local` the browser's zone, which the form sends as `local` (read on focus or
 * click). Remembered for a year in cookies the server renders from; a zone this runtime does not
 * know is not stored (the page stays in UTC). Setting a cookie in an action renders the page
 * again, now in the chosen zone.
 */
export async function setTimeZoneAction(formData: FormData): Promise<void> {
  const jar = await cookies();
  const local = knownZone(String(formData.get('local') ?? ''));
  const options = buildCookieOptions(await getSiteUrl(), YEAR_S);
  if (local) jar.set(LOCAL_ZONE_COOKIE, local, options);
  if (formData.get('show') === 'local' && local) jar.set(ZONE_COOKIE, local, options);
  else jar.delete(ZONE_COOKIE);
}
