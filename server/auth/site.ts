import { createActionURL } from '@auth/core';
import { headers } from 'next/headers';
import { sanitizeReturnPath } from './return-path';

/** Where next-auth serves Auth.js (its default; app/api/auth/[...nextauth]). */
const AUTH_BASE_PATH = '/api/auth';

/**
 * The site's origin for a request with these headers, derived by Auth.js's own function — the
 * one next-auth's `auth()`, `signIn()` and `signOut()` use: AUTH_URL (or NEXTAUTH_URL) when
 * set, else `X-Forwarded-Host`/`Host` and `X-Forwarded-Proto`. Redirects and cookie flags built
 * on it agree with Auth.js's by construction (Auth.js marks its cookies Secure exactly when
 * this URL is https).
 */
export function resolveSiteUrl(requestHeaders: Headers, env: Record<string, string | undefined> = process.env): URL {
  // next-auth passes X-Forwarded-Proto here as well; without it Auth.js assumes https.
  const actionUrl = createActionURL('session', requestHeaders.get('x-forwarded-proto') ?? 'https', requestHeaders, env, { basePath: AUTH_BASE_PATH });
  return new URL(actionUrl.origin);
}

/** The current request's site URL (React Server Components and server actions only). */
export async function getSiteUrl(): Promise<URL> {
  return resolveSiteUrl(await headers());
}

/**
 * `raw` as a path on this site for the current request, else `/` (see `sanitizeReturnPath`).
 * Every redirect to a caller-chosen page goes through here.
 */
export async function getSafeReturnPath(raw: unknown): Promise<string> {
  return sanitizeReturnPath(raw, (await getSiteUrl()).origin);
}
