import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * The one table from domain error code to HTTP status, problem title and tRPC code
 * (docs/product.md §5 Errors). Both transports map through it; nothing else decides a status.
 */
export const errorTable = {
  invalid_request: { status: 400, title: 'Invalid request', trpc: 'BAD_REQUEST' },
  unauthenticated: { status: 401, title: 'Unauthenticated', trpc: 'UNAUTHORIZED' },
  forbidden: { status: 403, title: 'Forbidden', trpc: 'FORBIDDEN' },
  not_found: { status: 404, title: 'Not found', trpc: 'NOT_FOUND' },
  method_not_allowed: { status: 405, title: 'Method not allowed', trpc: 'METHOD_NOT_SUPPORTED' },
  reservation_not_reclaimable: { status: 409, title: 'Reservation not reclaimable', trpc: 'CONFLICT' },
  reservation_not_active: { status: 409, title: 'Reservation not active', trpc: 'CONFLICT' },
  reservation_needs_review: { status: 409, title: 'Reservation needs review', trpc: 'CONFLICT' },
  eviction_set_changed: { status: 409, title: 'Eviction set changed', trpc: 'CONFLICT' },
  unit_occupied: { status: 409, title: 'Unit occupied', trpc: 'CONFLICT' },
  unit_unavailable: { status: 409, title: 'Unit unavailable', trpc: 'CONFLICT' },
  reservation_overlap: { status: 409, title: 'Reservation overlap', trpc: 'CONFLICT' },
  unit_missing: { status: 409, title: 'Unit missing', trpc: 'CONFLICT' },
  already_exists: { status: 409, title: 'Already exists', trpc: 'CONFLICT' },
  idempotency_in_progress: { status: 409, title: 'Idempotent request in progress', trpc: 'CONFLICT' },
  acting_org_changed: { status: 409, title: 'Acting org changed', trpc: 'CONFLICT' },
  payload_too_large: { status: 413, title: 'Payload too large', trpc: 'PAYLOAD_TOO_LARGE' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  unit_not_in_reservation: { status: 422, title: 'Unit not in reservation', trpc: 'UNPROCESSABLE_CONTENT' },
  unknown_unit: { status: 422, title: 'Unknown unit', trpc: 'UNPROCESSABLE_CONTENT' },
  unknown_org: { status: 422, title: 'Unknown org', trpc: 'UNPROCESSABLE_CONTENT' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused', trpc: 'UNPROCESSABLE_CONTENT' },
  rate_limited: { status: 429, title: 'Rate limited', trpc: 'TOO_MANY_REQUESTS' },
  internal_error: { status: 500, title: 'Internal server error', trpc: 'INTERNAL_SERVER_ERROR' },
} as const satisfies Record<string, { status: number; title: string; trpc: TRPC_ERROR_CODE_KEY }>;

export type ErrorCode = keyof typeof errorTable;

export type ProblemExtras = {
  errors?: { path: string; message: string }[];
  /** The reservation's status, for the 409s that docs/product.md §5 gives a `status` extra (see below). */
  reservationStatus?: string;
  terminate?: string[];
  unitIds?: string[];
  vmIds?: string[];
  orgIds?: string[];
};

/**
 * Every expected failure of a verb. `detail` is a sentence the caller can act on; `extras`
 * are the code's extra problem fields (docs/product.md §5 Errors).
 *
 * docs/product.md §5 lists `status` as the extra field of the reservation 409s, but RFC 9457 (which
 * docs/product.md §5 also requires) reserves `status` for the HTTP status code. Clients that follow the
 * RFC must keep working, so the HTTP status stays in `status` and the reservation's status
 * is sent as `reservationStatus`.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly extras: ProblemExtras;
  /** Seconds a client should wait before retrying (429, 503): both transports send it as `Retry-After`. */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, detail: string, extras: ProblemExtras = {}, opts: { retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.detail = detail;
    this.extras = extras;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
  }

  get httpStatus(): number {
    return errorTable[this.code].status;
  }

  /** The RFC 9457 problem+json body. */
  toProblem(): Problem {
    const row = errorTable[this.code];
    return {
      type: `https://docs.gpu-reservations.example/problems/${this.code.replaceAll('_', '-')}`,
      title: row.title,
      status: row.status,
      detail: this.detail,
      code: this.code,
      ...this.extras,
    };
  }
}

/** RFC 9457 problem details as this API writes them. */
export type Problem = { type: string; title: string; status: number; detail: string; code: ErrorCode } & ProblemExtras;

/** Shorthand for the 404 that hides whether a resource exists (docs/product.md §2). */
export function notFound(what: string): DomainError {
  return new DomainError('not_found', `${what} was not found, or you may not see it.`);
}
