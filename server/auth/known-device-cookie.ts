import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The known-device cookie (docs/product.md §9.3): the `known_devices` rows (./known-devices.ts)
 * a browser signed in on, each as `<id>:<HMAC-SHA256 of the id under AUTH_SECRET>`, so only this
 * site can mint one and a database leak alone cannot. Nothing here reads the database: proxy.ts
 * checks cookies with it before a request reaches its route.
 */

/** The cookie: HttpOnly, SameSite=Lax, Secure where the site is https (./cookie-options.ts). */
export const KNOWN_DEVICE_COOKIE = 'gpu_known_device';

/** A year: long enough to outlast any lockout campaign; browsers cap a cookie at 400 days. */
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** How many accounts one browser remembers (people share a browser; the cookie stays small). */
const MAX_ENTRIES = 5;

const ID = /^kd_[0-9a-f]{32}$/;

/** The secret cookies are signed with: Auth.js's own `AUTH_SECRET` (Auth.js refuses to run without one in production). */
export function knownDeviceSecret(): string {
  return process.env.AUTH_SECRET ?? '';
}

function mac(id: string, secret: string): Buffer {
  // Domain-separated from Auth.js's own uses of the same secret.
  return createHmac('sha256', secret).update(`known-device:${id}`).digest();
}

/** The cookie entry for device `id`. */
export function deviceToken(id: string, secret: string): string {
  return `${id}:${mac(id, secret).toString('base64url')}`;
}

/**
 * The device ids a cookie value names whose HMAC is right (at most MAX_ENTRIES, in the
 * cookie's order); anything malformed or forged is ignored, never an error. No database read.
 */
export function parseKnownDeviceCookie(value: string | undefined, secret: string): string[] {
  if (!value || !secret || value.length > 1024) return [];
  const ids: string[] = [];
  for (const entry of value.split('|').slice(0, MAX_ENTRIES)) {
    const [id, sig, extra] = entry.split(':');
    if (!id || !sig || extra !== undefined || !ID.test(id)) continue;
    const given = Buffer.from(sig, 'base64url');
    const expected = mac(id, secret);
    if (given.length === expected.length && timingSafeEqual(given, expected) && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The cookie value after signing in on `deviceId`: it first, then the others the cookie named, capped. */
export function knownDeviceCookieValue(deviceId: string, others: readonly string[], secret: string): string {
  return [deviceId, ...others.filter((id) => id !== deviceId)]
    .slice(0, MAX_ENTRIES)
    .map((id) => deviceToken(id, secret))
    .join('|');
}
