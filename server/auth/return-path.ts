/**
 * Where a redirect may send the browser back to: a page of this site, never another host.
 * Pure functions; `getSafeReturnPath` (./site.ts) applies them to the current request.
 */

/**
 * The path, query and hash of `raw` when it names a page of the site at `origin`, else
 * `fallback`. `raw` is parsed with the WHATWG URL parser — the one browsers use on a
 * `Location` — so every spelling of another host is caught however it is written: `//evil`,
 * `/\evil`, `/<tab>/evil` (browsers drop tabs and read `\` as `/`), `https://evil`,
 * `javascript:…`. Only the path, query and hash are kept, so the answer is always relative.
 * @param raw an untrusted value (a form field, a query parameter); anything but a string is refused.
 * @param origin the site's origin, e.g. `https://console.example`.
 */
export function sanitizeReturnPath(raw: unknown, origin: string, fallback = '/'): string {
  if (typeof raw !== 'string' || raw === '') return fallback;
  const site = new URL(origin);
  let url: URL;
  try {
    url = new URL(raw, site);
  } catch {
    return fallback;
  }
  // The scheme too: `blob:https://site/…` reports the site's origin but is no page of it.
  if (url.protocol !== site.protocol || url.origin !== site.origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  // `/.//evil` resolves on this site but normalises to the path `//evil`, which a browser
  // then reads as another host: the path must stay on this site when read on its own.
  return new URL(path, site).origin === site.origin ? path : fallback;
}

/**
 * Auth.js's `callbacks.redirect`: every redirect Auth.js makes (after sign-in, sign-out, from
 * its own endpoints' `callbackUrl`) goes to a page of this site, else to its home page.
 * @returns an absolute URL on `baseUrl`, as Auth.js expects.
 */
export function redirectWithinSite({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return new URL(sanitizeReturnPath(url, baseUrl), baseUrl).href;
}
