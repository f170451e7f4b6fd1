import { NextRequest } from 'next/server';
import { DomainError } from '../errors';
import { readCappedBody } from '../http/body';
import { problemResponse } from '../http/problem';
import { handlers } from './config';
import { getConsoleSession } from './console-principal';
import { PASSWORD_CHECK_TICKET_HEADER, passwordCheckGate, withPasswordCheckSlot } from './password-checks';
import { CREDENTIALS_SIGN_IN_PATH, signInRefusal } from './sign-in-door';

/** Auth.js's forms are a few hundred bytes; nothing it reads needs more. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * The refusal Auth.js answered for a credentials sign-in, read from where it sends the browser
 * (`Location`, or the JSON `url` next-auth's client asks for): `busy_<N>s` or `paused_<N>s`
 * (server/auth/config.ts SignInRefused), else null.
 */
async function refusalOf(res: Response, base: string): Promise<{ code: 'busy' | 'paused'; seconds: number } | null> {
  let target = res.headers.get('location');
  if (!target && res.headers.get('content-type')?.includes('application/json')) {
    target = ((await res.clone().json().catch(() => null)) as { url?: unknown } | null)?.url as string | null;
  }
  if (typeof target !== 'string') return null;
  const code = /^(busy|paused)_(\d{1,6})s$/.exec(new URL(target, base).searchParams.get('code') ?? '');
  return code ? { code: code[1] as 'busy' | 'paused', seconds: Number(code[2]) } : null;
}

/**
 * Auth.js's endpoints (`/api/auth/*`), with what Auth.js does not do itself:
 * - a body cap, refused with 413 before reading past it (Auth.js reads a whole form into
 *   memory, and these endpoints are open to anyone);
 * - `GET /api/auth/session` answers `null` for a session that sign-out ended: Auth.js only
 *   verifies the cookie's signature, which outlives sign-out; the `sessions` row decides
 *   (docs/product.md §9 i);
 * - a credentials sign-in refused by the CPU guard or the site-wide budget answers 429 with
 *   `Retry-After` (docs/product.md §9.3) instead of Auth.js's redirect; the password-check slot
 *   the door leased for it (server/auth/sign-in-door.ts) is claimed here and held until
 *   Auth.js is done.
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
  const ticket = signingIn ? req.headers.get(PASSWORD_CHECK_TICKET_HEADER) : null;
  const slot = ticket ? passwordCheckGate().claim(ticket) : null;
  let res: Response;
  try {
    res = slot ? await withPasswordCheckSlot(forward) : await forward();
  } finally {
    slot?.();
  }
  const refused = signingIn ? await refusalOf(res, req.url) : null;
  if (!refused) return res;
  const { body: problem, headers } = signInRefusal(refused.code, refused.seconds);
  return new Response(problem, { status: 429, headers });
}
