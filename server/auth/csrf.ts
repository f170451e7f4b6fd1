/**
 * CSRF guard for cookie-authenticated calls: the browser's Sec-Fetch-Site, or failing that the
 * Origin header, must name this site. Requests from non-browsers (no such headers) pass: they
 * carry no ambient cookies an attacker could borrow.
 */
export function isSameOrigin(req: Request): boolean {
  const site = req.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = req.headers.get('origin');
  if (!origin) return true;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
