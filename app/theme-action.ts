'use server';

import { buildCookieOptions } from '@/server/auth/cookie-options';
import { getSiteUrl } from '@/server/auth/site';
import { cookies } from 'next/headers';
import { parseTheme, THEME_COOKIE } from './theme';

const YEAR_S = 365 * 86_400;

/**
 * The theme switch (issue 23, docs/product.md §6 "Themes and accessibility"): `theme=light` or
 * `dark` is remembered for a year; `system` (or anything else) forgets the choice, so the
 * system's applies again. Setting a cookie in an action renders the page again, in the theme.
 */
export async function setThemeAction(formData: FormData): Promise<void> {
  const jar = await cookies();
  const theme = parseTheme(formData.get('theme'));
  if (theme === 'system') jar.delete(THEME_COOKIE);
  else jar.set(THEME_COOKIE, theme, buildCookieOptions(await getSiteUrl(), YEAR_S));
}
