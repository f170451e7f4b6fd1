import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';

/*
 * Sending one webhook request safely (docs/product.md §5.7): https only (plain http to loopback
 * only with WEBHOOKS_ALLOW_LOOPBACK=1, for development and tests); the host's addresses checked
 * when sending, not only when the URL was registered — every address the name resolves to must be
 * a public unicast one, IPv4-mapped IPv6 judged as the IPv4 it carries, loopback and private
 * ranges only where configured — and the connection made to the very address that was checked,
 * so a name that resolves elsewhere a moment later (DNS rebinding) cannot redirect it; no
 * redirects followed; 10 s for the whole exchange; at most 64 KiB of the answer read.
 */

/** The whole exchange, connect to last byte. */
export const SEND_TIMEOUT_MS = 10_000;
/** How much of an answer is read (and kept for nothing but its status). */
export const MAX_ANSWER_BYTES = 64 * 1024;

const loopbackAllowed = () => process.env.WEBHOOKS_ALLOW_LOOPBACK === '1';
const privateAllowed = () => process.env.WEBHOOKS_ALLOW_PRIVATE === '1';

/** Why an address may not be sent to, or null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let ip = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) reaches the IPv4 it carries: judge that one.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && loopbackAllowed()) return null;
  if ((range === 'private' || range === 'uniqueLocal') && privateAllowed()) return null;
  return `must be a public address: ${ip.toString()} is ${rangeWords[range] ?? 'a reserved address'}, which webhooks may not reach`;
}

/** ipaddr.js's range names, in words. */
const rangeWords: Record<string, string> = {
  loopback: 'this machine (loopback)',
  private: 'a private address',
  uniqueLocal: 'a private address (unique local)',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** A URL that may be registered, or why not (the address is checked again when sending). */
export function refusedUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a fragment';
  // `localhost.` is `localhost`: a trailing dot names the same host.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = ipaddr.isValid(host);
  const loopbackName = host === 'localhost' || (literal && ipaddr.parse(host).range() === 'loopback');
  // (Plain http to loopback only where the server allows it, WEBHOOKS_ALLOW_LOOPBACK=1: development and tests.)
  if (url.protocol === 'http:') {
    if (!(loopbackAllowed() && loopbackName)) return 'must use https';
  } else if (url.protocol !== 'https:') return 'must use https';
  if (host === 'localhost' && !loopbackAllowed()) return 'must be a public address, not this machine';
  if (literal) return refusedAddress(host);
  return null;
}

/** What one send came to: the status (when an answer came), how long it took, and why it failed. */
export type SendOutcome = { ok: boolean; statusCode?: number; latencyMs: number; error?: string };

/**
 * What a refused name is said to be, whatever the reason: the delivery log is the org's to read,
 * and saying "10.20.30.40 is private" or "does not resolve" would let any org map the names of
 * the network the servers sit in.
 */
const NOT_PUBLIC = 'refused: the URL’s host does not resolve to public addresses only';

/**
 * The addresses to connect to: the checked ones only. A name any of whose addresses is refused
 * is refused whole, so an attacker's name cannot mix a public address with a private one. An
 * address literal is refused with its reason (the org typed it); a name only as NOT_PUBLIC.
 * @param deadline when the whole send must be over: the lookup counts too.
 */
async function checkedAddress(host: string, deadline: number): Promise<{ address: string; family: 4 | 6 } | { refused: string }> {
  const name = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(name)) {
    const why = refusedAddress(name);
    return why ? { refused: why } : { address: name, family: ipaddr.parse(name).kind() === 'ipv6' ? 6 : 4 };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), Math.max(0, deadline - Date.now()))));
  const found = await Promise.race([lookup(name, { all: true, verbatim: true }).catch(() => []), timedOut]).finally(() => clearTimeout(timer));
  if (found === 'timeout') return { refused: `no answer within ${SEND_TIMEOUT_MS / 1000} s` };
  if (found.length === 0 || found.some((a) => refusedAddress(a.address) !== null)) return { refused: NOT_PUBLIC };
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * POSTs `body` to `url` with `headers` (docs/product.md §5.7 delivery rules above).
 * @returns ok for a 2xx answer; never throws.
 */
export async function sendWebhook(url: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
  const started = performance.now();
  const deadline = Date.now() + SEND_TIMEOUT_MS;
  const done = (o: Omit<SendOutcome, 'latencyMs'>): SendOutcome => ({ ...o, latencyMs: Math.round(performance.now() - started) });
  const refused = refusedUrl(url);
  if (refused) return done({ ok: false, error: `URL ${refused}` });
  const target = new URL(url);
  const checked = await checkedAddress(target.hostname, deadline);
  if ('refused' in checked) return done({ ok: false, error: checked.refused });
  const secure = target.protocol === 'https:';
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (o: Omit<SendOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(o));
    };
    const options: https.RequestOptions = {
      method: 'POST',
      // The checked address, whatever the name resolves to now.
      host: checked.address,
      family: checked.family,
      port: target.port || (secure ? 443 : 80),
      path: `${target.pathname}${target.search}`,
      headers: {
        ...headers,
        host: target.host,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'gpu-reservations-webhooks/1',
      },
      // TLS: the name in the URL, for SNI and the certificate check.
      ...(secure && !ipaddr.isValid(hostname) ? { servername: hostname } : {}),
      agent: false,
    };
    const req = (secure ? https : http).request(options, (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // Only the status matters; stop reading past the cap.
        if (read > MAX_ANSWER_BYTES) finish(answerOutcome(res.statusCode));
      });
      res.on('end', () => finish(answerOutcome(res.statusCode)));
      res.on('error', () => finish(answerOutcome(res.statusCode)));
    });
    // What the lookup left of the 10 s.
    const timer = setTimeout(() => finish({ ok: false, error: `no answer within ${SEND_TIMEOUT_MS / 1000} s` }), Math.max(0, deadline - Date.now()));
    req.on('error', (e) => finish({ ok: false, error: e.message }));
    req.end(body);
  });
}

/** A 2xx is delivered; a redirect is not followed and counts as a failure, as does any other status. */
function answerOutcome(statusCode: number | undefined): Omit<SendOutcome, 'latencyMs'> {
  const code = statusCode ?? 0;
  if (code >= 200 && code < 300) return { ok: true, statusCode: code };
  if (code >= 300 && code < 400) return { ok: false, statusCode: code, error: `answered ${code}: redirects are not followed` };
  return { ok: false, statusCode: code, error: `answered ${code}` };
}
