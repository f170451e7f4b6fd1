import { isIP } from 'node:net';

/**
 * How many proxies we trust in front of the app (`TRUSTED_PROXY_HOPS`, default 0), each of which
 * appends the address it received the request from to `X-Forwarded-For` (docs/product.md §9.3).
 * 0: none, so no client address is known — Next fills `X-Forwarded-For` with the
 * socket's address only when the client sent none, so the header alone cannot be told apart from
 * one a client made up.
 */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const raw = env.TRUSTED_PROXY_HOPS;
  const n = raw === undefined || raw === '' ? 0 : Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 16 ? n : 0;
}

/** `value` as a bare IP address (no port, no brackets; IPv4-mapped IPv6 as IPv4), else null. */
function normaliseAddress(value: string): string | null {
  let v = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  v = v.toLowerCase();
  if (v.startsWith('::ffff:') && isIP(v.slice(7)) === 4) v = v.slice(7);
  return isIP(v) ? v : null;
}

/**
 * The client's address as our trusted proxies saw it: with `hops` proxies, the `hops`-th entry of
 * `X-Forwarded-For` counted from the right (what the outermost proxy appended); entries further
 * left were written by the client and are ignored. A header shorter than that (a request that
 * skipped a proxy) yields its leftmost entry.
 * @returns null when no proxy is trusted, or the entry is no IP address.
 */
export function clientAddress(headers: Headers, hops: number = trustedProxyHops()): string | null {
  if (hops === 0) return null;
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return normaliseAddress(entries[Math.max(0, entries.length - hops)]!);
}
