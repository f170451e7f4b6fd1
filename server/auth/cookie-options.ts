/** The options every cookie the console sets carries, beside Auth.js's own session cookie. */
export type ConsoleCookieOptions = {
  httpOnly: true;
  sameSite: 'lax';
  path: '/';
  secure: boolean;
  maxAge?: number;
};

/**
 * Options for a console cookie on the site at `site` (see `resolveSiteUrl`): the flags
 * Auth.js gives its session cookie — HttpOnly, SameSite=Lax, Path=/ — and Secure exactly
 * when Auth.js sets it on its own, i.e. when the site is https.
 * @param maxAgeSeconds omitted: a browser-session cookie.
 */
export function buildCookieOptions(site: URL, maxAgeSeconds?: number): ConsoleCookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: site.protocol === 'https:',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
