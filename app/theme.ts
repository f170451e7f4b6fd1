import 'server-only';
import { cookies } from 'next/headers';

/**
 * The theme preference (issue 23, docs/product.md §6 "Themes and accessibility"): the `theme`
 * cookie is `light` or `dark`; absent (or anything else), the console follows the system. The
 * root layout writes it as `data-theme` on <html>, which picks the `color-scheme` every colour
 * token of app/globals.css follows — in the server render, so there is no flash and no script.
 */
export const THEME_COOKIE = 'theme';
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** `value` as a theme: `light`, `dark`, or `system` for anything else. */
export function parseTheme(value: unknown): Theme {
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** The theme this request's cookie asks for. */
export async function readTheme(): Promise<Theme> {
  return parseTheme((await cookies()).get(THEME_COOKIE)?.value);
}
