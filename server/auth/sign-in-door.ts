import http from 'node:http';
import { DomainError } from '../errors';
import { securityHeaders } from '../security-headers';
import { KNOWN_DEVICE_COOKIE, knownDeviceSecret, parseKnownDeviceCookie } from './known-device-cookie';
import { PASSWORD_CHECK_TICKET_HEADER, passwordCheckGate } from './password-checks';

/** Auth.js's credentials sign-in endpoint: the one request that checks a password. */
export const CREDENTIALS_SIGN_IN_PATH = /^\/api\/auth\/callback\/credentials\/?$/;

/** A lease the route has not claimed by then belonged to a request that never reached it. */
const LEASE_MS = 5_000;

/** The problem body and headers of a sign-in refused before its password was checked (docs/product.md §9.3). */
export function signInRefusal(code: 'busy' | 'paused', retryAfterSeconds: number): { body: string; headers: Record<string, string> } {
  const detail =
    code === 'busy'
      ? `Too many sign-ins are being checked right now; retry in ${retryAfterSeconds} s.`
      : `Sign-in is paused for browsers this site does not know, after many failed sign-ins; retry in ${retryAfterSeconds} s.`;
  const body = JSON.stringify(new DomainError('rate_limited', detail).toProblem());
  return { body, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store, no-transform', 'retry-after': String(retryAfterSeconds) } };
}

/** The named cookie's value in a `Cookie` header, or undefined. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    // Next writes cookie values percent-encoded (its cookies() API decodes them again).
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * What the door does with one request: `next` (Next handles it, with the lease's ticket in its
 * headers when it took one) or `refuse` (429 now).
 */
export function admitAtDoor(method: string | undefined, url: string | undefined, headers: http.IncomingHttpHeaders): 'pass' | 'refuse' | { ticket: string } {
  if (method !== 'POST' || !CREDENTIALS_SIGN_IN_PATH.test((url ?? '').split('?')[0]!)) return 'pass';
  // A browser the account knows takes no lease: the route lets it wait for a slot, ahead of strangers.
  if (parseKnownDeviceCookie(cookieValue(headers.cookie, KNOWN_DEVICE_COOKIE), knownDeviceSecret()).length > 0) return 'pass';
  const ticket = passwordCheckGate().lease(LEASE_MS);
  return ticket ? { ticket } : 'refuse';
}

const INSTALLED = Symbol.for('gpu-reservations.sign-in-door');

/**
 * The CPU guard at the door (docs/product.md §9.3 "Bounded password checks"), installed once per
 * process by instrumentation.ts: before Next parses a request, a credentials sign-in from a
 * browser without a known-device cookie leases a password-check slot or is answered 429 at once.
 * Why here and not in proxy.ts or the route: Next's own handling of a request (routing, the
 * Request objects, the proxy) costs milliseconds on a small machine, so a flood of 64 refused in
 * the route still held the event loop for half a second; refused here, each costs a header parse.
 * The lease's ticket travels to the route in a header only the door sets (one a client sends is
 * dropped); the route claims it (server/auth/http.ts) and holds the slot while Auth.js checks
 * the password.
 */
export function installSignInDoor(): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  const extra = Object.fromEntries(securityHeaders(process.env.NODE_ENV === 'production').map((h) => [h.key, h.value]));
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      delete req.headers[PASSWORD_CHECK_TICKET_HEADER];
      const verdict = admitAtDoor(req.method, req.url, req.headers);
      if (verdict === 'refuse') {
        const { body, headers } = signInRefusal('busy', 1);
        // The body is not read: a sign-in form is small, drained as it comes; a large or
        // unsized one ends the connection rather than being read at all.
        const length = Number(req.headers['content-length']);
        const small = Number.isInteger(length) && length <= 16 * 1024;
        req.resume();
        res.writeHead(429, { ...extra, ...headers, 'content-length': Buffer.byteLength(body), ...(small ? {} : { connection: 'close' }) });
        res.end(body);
        return true;
      }
      if (verdict !== 'pass') req.headers[PASSWORD_CHECK_TICKET_HEADER] = verdict.ticket;
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof proto.emit;
}
