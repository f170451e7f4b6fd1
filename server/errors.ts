import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * The one table from domain error code to HTTP status, problem title and tRPC code
 * (docs/product.md §5 Errors). Both transports map through it; nothing else decides a status.
 */
export const errorTable = {
  invalid_request: { status: 400, title: 'Invalid request', trpc: 'BAD_REQUEST' },
  unauthenticated: { status: 401, title: 'Unauthenticated', trpc: 'UNAUTHORIZED' },
  forbidden: { status: 403, title: 'Forbidden', trpc: 'FORBIDDEN' },
  insufficient_scope: { status: 403, title: 'Insufficient scope', trpc: 'FORBIDDEN' },
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
  topology_changed: { status: 409, title: 'Topology changed', trpc: 'CONFLICT' },
  limit_reached: { status: 409, title: 'Limit reached', trpc: 'CONFLICT' },
  last_admin: { status: 409, title: 'Last admin', trpc: 'CONFLICT' },
  not_enough_units: { status: 409, title: 'Not enough units', trpc: 'CONFLICT' },
  already_scheduled: { status: 409, title: 'Already scheduled', trpc: 'CONFLICT' },
  schedule_not_pending: { status: 409, title: 'Schedule not pending', trpc: 'CONFLICT' },
  // tRPC has no 410, and each tRPC code names one row (server/trpc/init.ts reads them back): the
  // cursor's precondition, that what follows it is still kept, failed. The problem says 410.
  cursor_expired: { status: 410, title: 'Cursor expired', trpc: 'PRECONDITION_FAILED' },
  payload_too_large: { status: 413, title: 'Payload too large', trpc: 'PAYLOAD_TOO_LARGE' },
  not_acceptable: { status: 406, title: 'Not acceptable', trpc: 'BAD_REQUEST' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  unit_not_in_reservation: { status: 422, title: 'Unit not in reservation', trpc: 'UNPROCESSABLE_CONTENT' },
  unknown_unit: { status: 422, title: 'Unknown unit', trpc: 'UNPROCESSABLE_CONTENT' },
  unknown_org: { status: 422, title: 'Unknown org', trpc: 'UNPROCESSABLE_CONTENT' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused', trpc: 'UNPROCESSABLE_CONTENT' },
  start_in_past: { status: 422, title: 'Start in the past', trpc: 'UNPROCESSABLE_CONTENT' },
  invalid_schedule_time: { status: 422, title: 'Invalid schedule time', trpc: 'UNPROCESSABLE_CONTENT' },
  rate_limited: { status: 429, title: 'Rate limited', trpc: 'TOO_MANY_REQUESTS' },
  service_unavailable: { status: 503, title: 'Service unavailable', trpc: 'SERVICE_UNAVAILABLE' },
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
  /** topology_changed: the node's current `topologyGen`. */
  topologyGen?: number;
  /** limit_reached: the limit the request would exceed (e.g. 100 active API keys per org). */
  limit?: number;
  /** not_enough_units: how many of the candidate units are reclaimable (released) now. */
  available?: number;
  /** schedule_not_pending: the schedule's status (docs/product.md §5.6). */
  scheduleStatus?: string;
  /** insufficient_scope: the scope the operation needs, which the API key lacks (docs/product.md §2). */
  scope?: string;
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
  /**
   * Next.js keeps a thrown error's `digest` in production builds (it replaces the message), so a
   * console page's error boundary can tell an outage from a bug: set to the code for 503s only.
   */
  readonly digest?: string;

  constructor(code: ErrorCode, detail: string, extras: ProblemExtras = {}, opts: { retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.detail = detail;
    this.extras = extras;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
    if (code === 'service_unavailable') this.digest = code;
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

/** What a client is told to wait during an outage: short, since the driver reconnects on the next use. */
export const SERVICE_UNAVAILABLE_RETRY_SECONDS = 2;

/**
 * Driver errors that mean "the database cannot be reached" rather than "this request is wrong"
 * (docs/product.md §5: the one 5xx that is not a bug). Socket errors from Node; postgres.js's own
 * connection errors; and SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now, 53300 too_many_connections, and class 08 (connection exception — also
 * what PgBouncer answers when it cannot reach the server).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

function isUnreachableCode(code: unknown): boolean {
  return typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code));
}

/**
 * The 503 `service_unavailable` for an error that says the database is unreachable, else
 * undefined (a bug stays a 500). Looks through `cause` chains: drizzle wraps the driver's error
 * in a DrizzleQueryError, tRPC in a TRPCError.
 */
export function toServiceUnavailable(e: unknown): DomainError | undefined {
  if (e instanceof DomainError) return e.code === 'service_unavailable' ? e : undefined;
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isUnreachableCode((cur as { code?: unknown }).code)) {
      return new DomainError(
        'service_unavailable',
        'The service cannot reach its database right now. Retry in a few seconds, with the same Idempotency-Key for a write, so that one which did complete is not done twice.',
        {},
        { retryAfterSeconds: SERVICE_UNAVAILABLE_RETRY_SECONDS },
      );
    }
  }
  return undefined;
}
