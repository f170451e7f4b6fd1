import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** The extra problem fields a code may carry (docs/product.md §5 Errors), by name. */
export type ProblemExtraName = keyof ProblemExtras;

/**
 * One row of the error table: the HTTP status, the problem's title, the tRPC code, what the
 * code means in words (the problem's page, `/problems/{code}`, and the document say it), the
 * extras every answer of the code carries (required in the document, and at compile time by
 * `DomainError`'s constructor) and the headers it always carries.
 */
type ErrorRow = {
  status: number;
  title: string;
  trpc: TRPC_ERROR_CODE_KEY;
  description: string;
  extras?: readonly ProblemExtraName[];
  headers?: readonly string[];
};

/**
 * The one table from domain error code to HTTP status, problem title and tRPC code
 * (docs/product.md §5 Errors). Both transports map through it; nothing else decides a status.
 * The OpenAPI document's problem schemas and the `/problems/{code}` pages are rendered from it.
 */
export const errorTable = {
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    trpc: 'BAD_REQUEST',
    description:
      'The body, query, a header or a cursor is malformed: a field of the wrong type, out of its range or pattern, unknown, or repeated; invalid JSON or UTF-8; a cursor this API did not hand out. `errors` names each offending field (e.g. `body.unitIds.0`) with what is wrong with it.',
    extras: ['errors'],
  },
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
    trpc: 'UNAUTHORIZED',
    description: 'The API key is missing, unknown or revoked (or, in the console, there is no session). Send `Authorization: Bearer <api key>`.',
    headers: ['WWW-Authenticate'],
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    trpc: 'FORBIDDEN',
    description:
      'The caller may see the resource but may not act on it (for example, an org of the audience reclaiming units). What it may not see answers 404 instead.',
  },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    trpc: 'FORBIDDEN',
    description:
      'The API key lacks the scope this operation needs (a console user whose role does not allow an action gets 403 `forbidden`). `scope` names the scope needed: `read`, `reservations:write`, `vms:write` or `keys:manage`.',
    extras: ['scope'],
  },
  not_found: {
    status: 404,
    title: 'Not found',
    trpc: 'NOT_FOUND',
    description: 'No such resource or path, or one the caller may not see: both answer the same, so that existence never leaks.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    trpc: 'METHOD_NOT_SUPPORTED',
    description: 'The path does not answer this method. `Allow` lists the methods it answers.',
    headers: ['Allow'],
  },
  reservation_not_reclaimable: {
    status: 409,
    title: 'Reservation not reclaimable',
    trpc: 'CONFLICT',
    description: 'The reservation is cancelled or expired, so nothing can be reclaimed or scheduled on it. `reservationStatus` says which.',
    extras: ['reservationStatus'],
  },
  reservation_not_active: {
    status: 409,
    title: 'Reservation not active',
    trpc: 'CONFLICT',
    description:
      'The reservation’s status does not allow this change (for example, editing or cancelling a cancelled or expired reservation). `reservationStatus` says which status it has.',
    extras: ['reservationStatus'],
  },
  reservation_needs_review: {
    status: 409,
    title: 'Reservation needs review',
    trpc: 'CONFLICT',
    description:
      'The node’s topology changed under the reservation: it grants nothing until a platform operator re-affirms it. `reservationStatus` is `needs-review`.',
    extras: ['reservationStatus'],
  },
  eviction_set_changed: {
    status: 409,
    title: 'Eviction set changed',
    trpc: 'CONFLICT',
    description:
      'The spot VMs a reclaim would terminate now differ from `expectedTerminate`, the set the caller previewed; nothing changed. `terminate` is the current set: preview again, then send it.',
    extras: ['terminate'],
  },
  unit_occupied: {
    status: 409,
    title: 'Unit occupied',
    trpc: 'CONFLICT',
    description: 'A named unit runs a VM. `unitIds` names the units, `vmIds` the VMs on them that the caller may see.',
    extras: ['unitIds', 'vmIds'],
  },
  unit_unavailable: {
    status: 409,
    title: 'Unit unavailable',
    trpc: 'CONFLICT',
    description: 'A unit’s state does not allow this placement (for example, a spot VM on a reserved unit that is not released). `unitIds` names them.',
    extras: ['unitIds'],
  },
  reservation_overlap: {
    status: 409,
    title: 'Reservation overlap',
    trpc: 'CONFLICT',
    description: 'Another reservation holds a named unit in an overlapping period. `unitIds` names the units.',
    extras: ['unitIds'],
  },
  unit_missing: {
    status: 409,
    title: 'Unit missing',
    trpc: 'CONFLICT',
    description: 'A reserved unit left the node’s topology; remove it from the reservation before re-affirming. `unitIds` names the units.',
    extras: ['unitIds'],
  },
  already_exists: {
    status: 409,
    title: 'Already exists',
    trpc: 'CONFLICT',
    description: 'The id is taken: a node’s id, or a reservation’s id on that node.',
  },
  idempotency_in_progress: {
    status: 409,
    title: 'Idempotent request in progress',
    trpc: 'CONFLICT',
    description: 'A request with the same `Idempotency-Key` is still being handled. Retry later with the same key to get its answer.',
  },
  acting_org_changed: {
    status: 409,
    title: 'Acting org changed',
    trpc: 'CONFLICT',
    description: 'Console only: the page acted for another org than the session’s current one. Reload the page.',
  },
  topology_changed: {
    status: 409,
    title: 'Topology changed',
    trpc: 'CONFLICT',
    description:
      'The node is no longer at `expectedTopologyGen`, the generation the caller reviewed; nothing changed. `topologyGen` is the node’s current one.',
    extras: ['topologyGen'],
  },
  limit_reached: {
    status: 409,
    title: 'Limit reached',
    trpc: 'CONFLICT',
    description: 'The org already has as many as it may (100 active API keys, 20 webhook endpoints). `limit` is that number: revoke or delete one first.',
    extras: ['limit'],
  },
  last_admin: {
    status: 409,
    title: 'Last admin',
    trpc: 'CONFLICT',
    description:
      'The change would leave the org without an admin: the last admin can be neither removed nor given another role. Make someone else admin first.',
  },
  not_enough_units: {
    status: 409,
    title: 'Not enough units',
    trpc: 'CONFLICT',
    description: 'A reclaim plan asked for more GPUs than the candidates have on the spot market now. `available` is how many they have.',
    extras: ['available'],
  },
  already_scheduled: {
    status: 409,
    title: 'Already scheduled',
    trpc: 'CONFLICT',
    description: 'A named unit is in another pending scheduled reclaim of the reservation. `unitIds` names the units.',
    extras: ['unitIds'],
  },
  schedule_not_pending: {
    status: 409,
    title: 'Schedule not pending',
    trpc: 'CONFLICT',
    description: 'The scheduled reclaim already ran, was cancelled or lapsed, so it cannot be moved or cancelled. `scheduleStatus` says which.',
    extras: ['scheduleStatus'],
  },
  // tRPC has no 410, and each tRPC code names one row (server/trpc/init.ts reads them back): the
  // cursor's precondition, that what follows it is still kept, failed. The problem says 410.
  cursor_expired: {
    status: 410,
    title: 'Cursor expired',
    trpc: 'PRECONDITION_FAILED',
    description: 'The events cursor is older than the 30 days events are kept. Read again without `after`, from the oldest event kept.',
  },
  payload_too_large: { status: 413, title: 'Payload too large', trpc: 'PAYLOAD_TOO_LARGE', description: 'The request body is larger than 64 KiB.' },
  not_acceptable: {
    status: 406,
    title: 'Not acceptable',
    trpc: 'BAD_REQUEST',
    description: 'The `Accept` header allows no media type the route answers: JSON everywhere, and CSV or NDJSON on the lists that export.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    trpc: 'UNSUPPORTED_MEDIA_TYPE',
    description: 'The body is not `application/json` in UTF-8, or it has a `Content-Encoding`.',
  },
  unit_not_in_reservation: {
    status: 422,
    title: 'Unit not in reservation',
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'A named unit is not one of the reservation’s `reservedUnitIds`. `unitIds` names the strays.',
    extras: ['unitIds'],
  },
  unknown_unit: {
    status: 422,
    title: 'Unknown unit',
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'A named unit is not one of the node’s units. `unitIds` names them.',
    extras: ['unitIds'],
  },
  unknown_org: {
    status: 422,
    title: 'Unknown org',
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'A named org does not exist. `orgIds` names them.',
    extras: ['orgIds'],
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'The `Idempotency-Key` was used in the last 24 hours for another request (another query or body). Use a new key for a new request.',
  },
  start_in_past: {
    status: 422,
    title: 'Start in the past',
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'A new reservation’s `startsAt` is more than 5 minutes before the server’s clock. `errors` names `body.startsAt`.',
    extras: ['errors'],
  },
  invalid_schedule_time: {
    status: 422,
    title: 'Invalid schedule time',
    trpc: 'UNPROCESSABLE_CONTENT',
    description:
      'A scheduled reclaim’s `at` is not in the future, more than 30 days ahead, or not before the reservation’s `endsAt`. `errors` names `body.at`.',
    extras: ['errors'],
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    trpc: 'TOO_MANY_REQUESTS',
    description:
      'The caller used up its requests for this minute: the API key’s own, or those all its org’s keys share (`detail` says which); or the org created as many API keys as it may in a minute. Retry after `Retry-After` seconds.',
    headers: ['Retry-After'],
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    trpc: 'SERVICE_UNAVAILABLE',
    description:
      'The database cannot be reached right now; this is never a bug. Retry after `Retry-After` seconds; a write retried with the same `Idempotency-Key` happens at most once.',
    headers: ['Retry-After'],
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    trpc: 'INTERNAL_SERVER_ERROR',
    description: 'A bug: the server failed to handle the request. The answer says nothing of why; the server’s log has the cause. Nothing was half done.',
  },
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof errorTable;

/** The extras every answer of `C` carries (its row's `extras`). */
export type RequiredExtras<C extends ErrorCode> = (typeof errorTable)[C] extends { extras: readonly (infer K extends ProblemExtraName)[] } ? K : never;

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

type ErrorOptions = { retryAfterSeconds?: number };

/**
 * `DomainError`'s arguments, one tuple per code: a code whose row lists `extras` cannot be
 * thrown without them, so the document may mark them required (docs/product.md §5 Errors).
 */
export type DomainErrorArgs = {
  [C in ErrorCode]: [RequiredExtras<C>] extends [never]
    ? [code: C, detail: string, extras?: ProblemExtras, opts?: ErrorOptions]
    : [code: C, detail: string, extras: ProblemExtras & Required<Pick<ProblemExtras, RequiredExtras<C>>>, opts?: ErrorOptions];
}[ErrorCode];

/** The extras every answer of a code carries (its row's `extras`; docs/product.md §5 Errors). */
export function problemExtrasOf(code: ErrorCode): readonly ProblemExtraName[] {
  return (errorTable[code] as ErrorRow).extras ?? [];
}

/** The headers every answer of a code carries (its row's `headers`; docs/product.md §5 Errors). */
export function problemHeadersOf(code: ErrorCode): readonly string[] {
  return (errorTable[code] as ErrorRow).headers ?? [];
}

/** The problem `type` of a code: a path of this app whose page describes it, the same on every deployment (docs/product.md §5 Errors). */
export function problemType(code: ErrorCode): string {
  return `/problems/${code}`;
}

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

  constructor(...[code, detail, extras = {}, opts = {}]: DomainErrorArgs) {
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
      type: problemType(this.code),
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
