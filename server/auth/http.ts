import { NextRequest } from 'next/server';
import { DomainError } from '../errors';
import { readCappedBody } from '../rest/body';
import { problemResponse } from '../rest/problem';
import { handlers } from './config';
import { getConsoleSession } from './console-principal';

/** Auth.js's forms are a few hundred bytes; nothing it reads needs more. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * Auth.js's endpoints (`/api/auth/*`), with two things Auth.js does not do itself:
 * - a body cap, refused with 413 before reading past it (Auth.js reads a whole form into
 *   memory, and these endpoints are open to anyone);
 * - `GET /api/auth/session` answers `null` for a session that sign-out ended: Auth.js only
 *   verifies the cookie's signature, which outlives sign-out; the `sessions` row decides
 *   (docs/product.md §9 i).
 */
export async function handleAuthRequest(req: NextRequest): Promise<Response> {
  if (req.method === 'GET' && req.nextUrl.pathname.endsWith('/session') && !(await getConsoleSession())) {
    return Response.json(null, { headers: { 'cache-control': 'no-store' } });
  }
  if (req.method !== 'POST') return handlers.GET(req);
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readCappedBody(req, MAX_AUTH_BODY_BYTES);
  } catch (e) {
    if (e instanceof DomainError) return problemResponse(e);
    throw e;
  }
  return handlers.POST(new NextRequest(req.url, { method: 'POST', headers: req.headers, body: body.byteLength ? body : null }));
}
