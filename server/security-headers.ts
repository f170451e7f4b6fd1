/**
 * HSTS (docs/product.md §9.3): browsers keep to HTTPS for two years, subdomains included
 * (no `preload`: that is the deployer's commitment to make). Sent by `next build`/`next start`
 * (production) only: `next dev` must not teach a developer's browser HTTPS for localhost.
 * Browsers ignore it over plain HTTP, so a loopback production server is unaffected.
 */
const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/**
 * The headers every response carries (next.config.ts sends them on everything Next answers; the
 * sign-in door, which answers before Next, sends them itself).
 */
export function securityHeaders(production: boolean): { key: string; value: string }[] {
  return [
    ...(production ? [{ key: 'Strict-Transport-Security', value: STRICT_TRANSPORT_SECURITY }] : []),
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  ];
}
