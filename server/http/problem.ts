/**
 * The API's answers as HTTP, built one way for every entry point (docs/product.md §5 Errors):
 * REST, tRPC, Auth.js's endpoints, the proxy and the bench floor answer a `DomainError` as the
 * same problem+json — status from the one error table (server/errors.ts), the same headers (the
 * proxy sets its own `cache-control`) — and a 500 or 503 that says nothing of internals. Nothing
 * here knows a route or a procedure.
 */
import type { z } from 'zod';
import { DomainError, type Problem } from '../errors';
import { JSON_MEDIA_TYPE, PROBLEM_MEDIA_TYPE } from './media-type';

const JSON_HEADERS = { 'content-type': JSON_MEDIA_TYPE, 'cache-control': 'no-store' };

/** A JSON response with the API's headers. `body` is serialised as is. */
export function jsonResponse(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...JSON_HEADERS, ...extra } });
}

/**
 * The headers of a domain error's problem+json answer (docs/product.md §5 Errors): its media
 * type, `WWW-Authenticate` for a 401, `Retry-After` where the error says when to come back (429,
 * 503). `no-transform`: Next gzips every body of unknown length, and a gzip stream for a 300-byte
 * problem costs more CPU than the refusal it carries — a flood of refused requests (429,
 * docs/product.md §9.3) must stay cheap to answer.
 * @param extra headers added last (e.g. `Allow` on a 405); they win over the defaults.
 */
export function problemHeaders(err: DomainError, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': PROBLEM_MEDIA_TYPE,
    'cache-control': 'no-store, no-transform',
    ...(err.code === 'unauthenticated' ? { 'www-authenticate': 'Bearer realm="gpu-reservations"' } : {}),
    ...(err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : {}),
    ...extra,
  };
}

/**
 * The problem+json response for a domain error (docs/product.md §5 Errors): the error's status,
 * its problem body and `problemHeaders`.
 * @param extra headers added last (e.g. `Allow` on a 405).
 */
export function problemResponse(err: DomainError, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(err.toProblem()), { status: err.httpStatus, headers: problemHeaders(err, extra) });
}

/** The problem of a 500: says nothing of internals (docs/product.md §5), on both transports. */
export function internalError(): Problem {
  return new DomainError('internal_error', 'The server failed to handle this request. The failure has been logged; retry later.').toProblem();
}

/** The 500 answer: says nothing of internals (docs/product.md §5); the cause goes to the server log. */
export function internalErrorResponse(cause: unknown): Response {
  console.error('[api] unexpected error', cause);
  return problemResponse(new DomainError('internal_error', internalError().detail));
}

/**
 * The 503 answer while the database is unreachable (docs/product.md §5 Errors). The cause goes to
 * the log as one line (not a stack per request: an outage answers thousands of these).
 */
export function serviceUnavailableResponse(err: DomainError, cause: unknown): Response {
  console.warn(`[api] database unavailable: ${describeCause(cause)}`);
  return problemResponse(err);
}

/** The driver's code and message, for a log line. */
export function describeCause(cause: unknown): string {
  const codes: string[] = [];
  for (let cur: unknown = cause, depth = 0; cur && typeof cur === 'object' && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(`${code}${typeof message === 'string' ? ` ${message.split('\n')[0]!.slice(0, 200)}` : ''}`);
  }
  return codes.join(' ← ') || String(cause);
}

/**
 * Turns zod issues into a 400 `invalid_request` naming each offending field; unknown fields
 * are named one by one (docs/product.md §5 Requests).
 * @param where prefix of each path: `body`, `query`, `header`.
 */
export function invalidRequest(where: string, issues: readonly z.core.$ZodIssue[]): DomainError {
  const errors: { path: string; message: string }[] = [];
  for (const issue of issues) {
    const base = [where, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.push({ path: [...base, key].join('.'), message: 'is not a known field' });
    } else {
      errors.push({ path: base.join('.'), message: issue.message });
    }
  }
  const first = errors[0];
  const detail = first
    ? `The request is invalid: ${first.path} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.`
    : 'The request is invalid.';
  return new DomainError('invalid_request', detail, { errors });
}
