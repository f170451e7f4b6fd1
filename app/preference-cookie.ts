import 'server-only';
import { buildCookieOptions } from '@/server/auth/cookie-options';
import { getSiteUrl } from '@/server/auth/site';
import { cookies } from 'next/headers';

const YEAR_S = 365 * 86_400;

/**
 * Remembers a display preference of this browser (the theme, the time zone: docs/product.md §6)
 * for a year, or forgets it when `value` is undefined, so its default applies again. The console's
 * header switches' one way to write their cookies; setting one in a server action renders the page
 * again, in the new preference.
 */
export async function rememberPreference(name: string, value: string | undefined): Promise<void> {
  const jar = await cookies();
  if (value === undefined) jar.delete(name);
  else jar.set(name, value, buildCookieOptions(await getSiteUrl(), YEAR_S));
}
