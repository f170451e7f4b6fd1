'use server';

import { rememberPreference } from '@/app/preference-cookie';
import { knownZone, LOCAL_ZONE_COOKIE, ZONE_COOKIE } from './time-zone';

/**
 * The header's time-zone switch (issue 23, docs/product.md §6 "Time on screen"): `show=utc`
 * shows UTC, `show=local` the browser's zone, which the form sends as `local` (read on focus or
 * click). Remembered for a year in cookies the server renders from; a zone this runtime does not
 * know is not stored (the page stays in UTC).
 */
export async function setTimeZoneAction(formData: FormData): Promise<void> {
  const local = knownZone(String(formData.get('local') ?? ''));
  if (local) await rememberPreference(LOCAL_ZONE_COOKIE, local);
  await rememberPreference(ZONE_COOKIE, formData.get('show') === 'local' && local ? local : undefined);
}
