'use server';

import { rememberPreference } from './preference-cookie';
import { parseTheme, THEME_COOKIE } from './theme';

/**
 * The theme switch (issue 23, docs/product.md §6 "Themes and accessibility"): `theme=light` or
 * `dark` is remembered for a year; `system` (or anything else) forgets the choice, so the
 * system's applies again.
 */
export async function setThemeAction(formData: FormData): Promise<void> {
  const theme = parseTheme(formData.get('theme'));
  await rememberPreference(THEME_COOKIE, theme === 'system' ? undefined : theme);
}
