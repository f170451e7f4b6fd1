import { DomainError } from '@/server/errors';
import { NextResponse, type NextRequest } from 'next/server';

/** The header that tells the console layout which page a signed-out visitor asked for. */
export const PATHNAME_HEADER = 'x-console-path';

/**
 * - Under /v1: Next.js answers a path it cannot percent-decode (`/v1/%ZZ`) with an HTML 400
 *   before any route runs. Such a path names no resource: answer 404 problem+json like every
 *   other unknown path (docs/product.md §5).
 * - Console pages: pass the requested path on, so that sign-in can return to it.
 */
export function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  if (pathname === '/v1' || pathname.startsWith('/v1/')) {
    try {
      decodeURIComponent(pathname);
      return NextResponse.next();
    } catch {
      const problem = new DomainError('not_found', 'No API route exists at this path; see /v1/openapi.json.').toProblem();
      return NextResponse.json(problem, { status: 404, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' } });
    }
  }
  const headers = new Headers(req.headers);
  headers.set(PATHNAME_HEADER, pathname + search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/v1', '/v1/:path*', '/((?!api/|_next/|sign-in|icon\\.svg|favicon\\.ico).*)'] };
