import http from 'node:http';
import { DomainError } from '../errors';
import { problemHeaders } from '../http/problem';
import { securityHeaders } from '../security-headers';
import { KNOWN_DEVICE_COOKIE, knownDeviceSecret, parseKnownDeviceCookie } from './known-device-cookie';
import { PASSWORD_CHECK_TICKET_HEADER, passwordCheckGate } from './password-checks';

/** Auth.js's credentials sign-in endpoint: a request that checks a password. */
export const CREDENTIALS_SIGN_IN_PATH = /^\/api\/auth\/callback\/credentials\/?$/;

/** The sign-in page: a POST to it is its form's server action, the other request that checks a password. */
const SIGN_IN_PAGE_PATH = /^\/sign-in\/?$/;

/**
 * A lease goes back when its request's response ends, claimed or not; this is only the backstop
 * for a request that never reaches its transport. Short: a slot held for a request that is still
 * sending its body is a slot no one can use (the transport claims it once the body is read).
 */
const LEASE_MS = 1_000;

/**
 * Sign-ins with a known-device cookie pass the door without a lease (they wait for a slot in the
 * route, ahead of strangers); at most this many at once per instance, so a valid cookie of an
 * attacker's own account cannot carry a flood past the door either.
 */
const MAX_KNOWN_DEVICE_SIGN_INS = 16;
let knownInFlight = 0;

/** The problem body and headers of a sign-in refused before its password was checked (docs/product.md §9.3). */
export function signInRefusal(code: 'busy' | 'paused', retryAfterSeconds: number): { body: string; headers: Record<string, string> } {
  const detail =
    code === 'busy'
      ? `Too many sign-ins are being checked right now; retry in ${retryAfterSeconds} s.`
      : `Sign-in is paused for browsers this site does not know, after many failed sign-ins; retry in ${retryAfterSeconds} s.`;
  const err = new DomainError('rate_limited', detail, {}, { retryAfterSeconds });
  return { body: JSON.stringify(err.toProblem()), headers: problemHeaders(err) };
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
 * What the door does with one request: `pass` (not a sign-in), `known` (a sign-in with a
 * known-device cookie: Next handles it without a lease), a lease's ticket (Next handles it, the
 * ticket in its headers), or `refuse` (429 now).
 */
export function admitAtDoor(
  method: string | undefined,
  url: string | undefined,
  headers: http.IncomingHttpHeaders,
): 'pass' | 'refuse' | 'known' | { ticket: string } {
  if (method !== 'POST' || !isSignIn(url)) return 'pass';
  if (parseKnownDeviceCookie(cookieValue(headers.cookie, KNOWN_DEVICE_COOKIE), knownDeviceSecret()).length > 0)
    return knownInFlight < MAX_KNOWN_DEVICE_SIGN_INS ? 'known' : 'refuse';
  const ticket = passwordCheckGate().lease(LEASE_MS);
  return ticket ? { ticket } : 'refuse';
}

/** Whether a request target is one of the two sign-in paths, as Next will route it (dot segments resolved). */
function isSignIn(url: string | undefined): boolean {
  if (!url?.startsWith('/')) return false;
  let path: string;
  try {
    path = new URL(url, 'http://door.invalid').pathname;
  } catch {
    return false;
  }
  return CREDENTIALS_SIGN_IN_PATH.test(path) || SIGN_IN_PAGE_PATH.test(path);
}

/**
 * The door's refusal of the sign-in form's action: back to the form with the busy message, as the
 * action itself would answer (app/actions.ts) — a 303 a browser without JavaScript follows, and
 * `x-action-redirect`, by which Next's client follows a server action's redirect.
 */
function formRefusal(url: string): { status: number; headers: Record<string, string>; body: string } {
  const next = new URL(url, 'http://door.invalid').searchParams.get('next');
  const target = `/sign-in?error=1&code=busy_1s${next ? `&next=${encodeURIComponent(next)}` : ''}`;
  return {
    status: 303,
    headers: { location: target, 'x-action-redirect': `${target};replace`, 'content-type': 'text/plain', 'cache-control': 'no-store' },
    body: '',
  };
}

const INSTALLED = Symbol.for('gpu-reservations.sign-in-door');

/**
 * The CPU guard at the door (docs/product.md §9.3 "Bounded password checks"), installed once per
 * process by instrumentation.ts: before Next parses a request, a sign-in (Auth.js's credentials
 * endpoint, or the sign-in form's action) from a browser without a known-device cookie leases a
 * password-check slot or is answered 429 at once; one with such a cookie passes, at most 16 at once.
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
        const { status, body, headers } = CREDENTIALS_SIGN_IN_PATH.test(new URL(req.url!, 'http://door.invalid').pathname)
          ? { status: 429, ...signInRefusal('busy', 1) }
          : formRefusal(req.url!);
        // The body is not read: a sign-in form is small, drained as it comes; a large or
        // unsized one ends the connection rather than being read at all.
        const length = Number(req.headers['content-length']);
        const small = Number.isInteger(length) && length <= 16 * 1024;
        req.resume();
        res.writeHead(status, { ...extra, ...headers, 'content-length': Buffer.byteLength(body), ...(small ? {} : { connection: 'close' }) });
        res.end(body);
        return true;
      }
      if (verdict === 'known') {
        knownInFlight++;
        res.once('close', () => knownInFlight--);
      } else if (verdict !== 'pass') {
        const { ticket } = verdict;
        req.headers[PASSWORD_CHECK_TICKET_HEADER] = ticket;
        // Whatever becomes of the request (aborted, 413, a body that never came), its lease ends with it.
        res.once('close', () => passwordCheckGate().dropLease(ticket));
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof proto.emit;
}
