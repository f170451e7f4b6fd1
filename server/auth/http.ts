import { NextRequest } from 'next/server';
import { DomainError } from '../errors';
import { readCappedBody } from '../http/body';
import { problemResponse } from '../http/problem';
import { handlers } from './config';
import { getConsoleSession } from './console-principal';
import { PASSWORD_CHECK_TICKET_HEADER, runSignInRequest } from './password-checks';
import { CREDENTIALS_SIGN_IN_PATH, signInRefusal } from './sign-in-door';

/** Auth.js's forms are a few hundred bytes; nothing it reads needs more. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * Auth.js's endpoints (`/api/auth/*`), with what Auth.js does not do itself:
 * - a body cap, refused with 413 before reading past it (Auth.js reads a whole form into
 *   memory, and these endpoints are open to anyone);
 * - `GET /api/auth/session` answers `null` for a session that sign-out ended: Auth.js only
 *   verifies the cookie's signature, which outlives sign-out; the `sessions` row decides
 *   (docs/product.md §9 i);
 * - a credentials sign-in refused by the CPU guard or the site-wide budget answers 429 with
 *   `Retry-After` (docs/product.md §9.3) instead of Auth.js's redirect — decided by what the
 *   check noted in the request's scope, never by the redirect's URL (which carries the
 *   client's callback URL); the password-check slot the door leased for it
 *   (server/auth/sign-in-door.ts) is claimed here and held until Auth.js is done.
 */
export async function handleAuthRequest(req: NextRequest): Promise<Response> {
  if (req.method === 'GET' && req.nextUrl.pathname.endsWith('/session') && !(await getConsoleSession())) {
    return Response.json(null, { headers: { 'cache-control': 'no-store' } });
  }
  if (req.method !== 'POST') return handlers.GET(req);
  const signingIn = CREDENTIALS_SIGN_IN_PATH.test(req.nextUrl.pathname);
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readCappedBody(req, MAX_AUTH_BODY_BYTES);
  } catch (e) {
    if (e instanceof DomainError) return problemResponse(e);
    throw e;
  }
  const forward = () => handlers.POST(new NextRequest(req.url, { method: 'POST', headers: req.headers, body: body.byteLength ? body : null }));
  if (!signingIn) return forward();
  const { result: res, scope } = await runSignInRequest(req.headers.get(PASSWORD_CHECK_TICKET_HEADER), forward);
  if (!scope.refusal) return res;
  const { body: problem, headers } = signInRefusal(scope.refusal.code, scope.refusal.retryAfterSeconds);
  return new Response(problem, { status: 429, headers });
}
