import { NextResponse, type NextRequest } from 'next/server';
import { isSameOrigin } from '@/server/auth/csrf';
import { contentSecurityPolicy, newNonce } from '@/server/content-security-policy';
import { DomainError } from '@/server/errors';
import { allowAt } from '@/server/http/allow-at';
import { MAX_BODY_BYTES, readCappedBody } from '@/server/http/body';
import { httpMethods } from '@/server/http/methods';
import { NONCE_HEADER, PATHNAME_HEADER } from '@/server/http/page-headers';
import { problemResponse } from '@/server/http/problem';

/** The methods a Next route file can export; any other never reaches one. */
const ROUTE_METHODS = new Set<string>(httpMethods);

/**
 * The proxy's problem+json: the kit's (server/http/problem.ts), with the `cache-control` the
 * proxy has always sent (`no-store` alone; issue 19 kept its answers byte for byte).
 */
const problem = (e: DomainError, extra: Record<string, string> = {}) => problemResponse(e, { 'cache-control': 'no-store', ...extra });

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * A chain of proxies sends `X-Forwarded-Proto: https,http` and `X-Forwarded-Host: a, b`; the
 * URL parsers downstream (Auth.js's site URL, our return paths) take one value. Keep the
 * first (the client-facing hop), and drop a value that is no protocol or host at all rather
 * than let it fail a request with a 500.
 */
function normaliseForwarded(headers: Headers): void {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (proto === 'http' || proto === 'https') headers.set('x-forwarded-proto', proto);
  else headers.delete('x-forwarded-proto');
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  if (host && HOST.test(host)) headers.set('x-forwarded-host', host);
  else headers.delete('x-forwarded-host');
}

/**
 * - A path that cannot be percent-decoded (`/v1/%ZZ`) names nothing: 404 (problem+json under
 *   /v1 and /api, like every other unknown path, docs/product.md §5) instead of Next's HTML 400
 *   or a handler's 500.
 * - Forwarded headers are normalised (see above) for everything behind this.
 * - A cross-site POST to a page (a server action another site submits) is 403 problem+json
 *   `forbidden` rather than Next's 500.
 * - Console pages get the requested path passed on, so that sign-in can return to it, and a
 *   Content-Security-Policy with a fresh nonce (server/content-security-policy.ts): on the
 *   request, where Next finds the nonce for the scripts it renders (and `x-nonce` for our own),
 *   and on the response. API answers are JSON, no documents: they get no policy of their own.
 * Bodies pass through untouched; next.config.ts caps how much of one this layer buffers.
 */
export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const api = pathname === '/v1' || pathname.startsWith('/v1/') || pathname.startsWith('/api/');
  const refuse = (e: DomainError, extra: Record<string, string> = {}) =>
    api ? problem(e, extra) : new NextResponse(e.detail, { status: e.httpStatus, headers: { 'content-type': 'text/plain; charset=utf-8', ...extra } });
  try {
    decodeURIComponent(pathname);
  } catch {
    return refuse(new DomainError('not_found', api ? 'No API route exists at this path; see /v1/openapi.json.' : 'Not found.'));
  }
  if (api && !ROUTE_METHODS.has(req.method)) {
    // Next answers a method no route file can export with an empty 400; say what is allowed
    // (from the generated method map: the route table would load every verb here).
    const allow = pathname.startsWith('/api/') ? 'GET, POST' : allowAt(pathname);
    if (allow) return refuse(new DomainError('method_not_allowed', `This path answers ${allow} only, not ${req.method}.`), { allow });
    return refuse(new DomainError('not_found', 'No API route exists at this path; see /v1/openapi.json.'));
  }
  if (await exceedsBodyCap(req)) return refuse(new DomainError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`));
  const headers = new Headers(req.headers);
  normaliseForwarded(headers);
  if (api) return NextResponse.next({ request: { headers } });
  if (isCrossSiteAction(req.method, req.url, headers)) {
    // Next answers a cross-origin server action with a bare 500 ("Invalid Server Actions
    // request."); it is the caller who is refused, so say so, as problem+json.
    const e = new DomainError('forbidden', 'A console form or action may only be submitted from this site’s own pages; this request came from another site.');
    return problem(e);
  }
  headers.set(PATHNAME_HEADER, pathname + search);
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development' });
  headers.set(NONCE_HEADER, nonce);
  headers.set('content-security-policy', policy);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('content-security-policy', policy);
  return res;
}

/**
 * A server action (a `Next-Action` POST, or a form POST to a page, which is how a form action
 * posts without JavaScript) that another site sent: `Sec-Fetch-Site` or `Origin` does not name
 * this site (server/auth/csrf.ts, the rule tRPC applies, docs/product.md §6). A page takes no
 * other POST, so any cross-site one is refused before Next decodes it.
 */
function isCrossSiteAction(method: string, url: string, headers: Headers): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  // Judged on the normalised forwarded headers: the first X-Forwarded-Host, as Next reads it.
  return !isSameOrigin(new Request(url, { headers }));
}

/**
 * No route takes a body over 64 KiB (docs/product.md §5); the cap is enforced here, before
 * any route or Auth.js reads one: by the declared length, else by reading at most that much
 * with the reader the routes use.
 */
async function exceedsBodyCap(req: NextRequest): Promise<boolean> {
  if (!req.body || req.method === 'GET' || req.method === 'HEAD') return false;
  // A declared length decides unread: Node's HTTP parser never hands on more body than the
  // Content-Length says (RFC 9112 §6.3; with Transfer-Encoding too it refuses the request), and
  // reading a body here only to count it cost every API write a second pass through web streams
  // (issue 26: a tenth of the reclaim's app CPU). Only a chunked body is read to be measured.
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared.trim())) return Number(declared) > MAX_BODY_BYTES;
  try {
    await readCappedBody(req);
    return false;
  } catch (e) {
    if (e instanceof DomainError && e.code === 'payload_too_large') return true;
    throw e;
  }
}

export const config = {
  matcher: [
    '/((?!api/|_next/static|_next/image|icon\\.svg|favicon\\.ico).*)',
    {
      source: '/api/:path*',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
  ],
};
