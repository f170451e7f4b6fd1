import { NextResponse, type NextRequest } from 'next/server';
import { DomainError } from '@/server/errors';

/**
 * Next.js answers a path it cannot percent-decode (`/v1/%ZZ`) with an HTML 400 before any
 * route runs. Under /v1 such a path names no resource: answer 404 problem+json like every
 * other unknown path (SPEC §5).
 */
export function proxy(req: NextRequest) {
  try {
    decodeURIComponent(req.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    const problem = new DomainError('not_found', 'No API route exists at this path; see /v1/openapi.json.').toProblem();
    return NextResponse.json(problem, { status: 404, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' } });
  }
}

export const config = { matcher: ['/v1/:path*'] };
