/**
 * Typed problems: every error of the API is RFC 9457 `application/problem+json` with a `code`
 * (docs/product.md §5, "Errors"), and the document lists, per operation and status, exactly the
 * codes it can answer. These types read that list from the generated schema.
 */
import type { paths } from './generated/schema';

/** What every problem body carries (docs/product.md §5). */
export type Problem = { type: string; title: string; status: number; detail: string; code: string };

type ProblemBodies<R> = {
  [S in keyof R]: S extends number ? (R[S] extends { content: { 'application/problem+json': infer B } } ? B : never) : never;
}[keyof R];

/** The union of problem bodies the document lists for one operation, e.g. `ProblemOf<'/v1/vms', 'post'>`. */
export type ProblemOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? ProblemBodies<R> : never;

/** The problems of `POST /v1/nodes/{nodeId}/reservations/{id}/reclaim` (docs/product.md §5.1). */
export type ReclaimProblem = ProblemOf<'/v1/nodes/{nodeId}/reservations/{id}/reclaim', 'post'>;
/** The problems of `POST …/reclaim-plan` (docs/product.md §5.5). */
export type ReclaimPlanProblem = ProblemOf<'/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan', 'post'>;
/** The problems of `POST …/release` (docs/product.md §5.2). */
export type ReleaseProblem = ProblemOf<'/v1/nodes/{nodeId}/reservations/{id}/release', 'post'>;
/** The problems of `POST /v1/vms/{id}/terminate` (docs/product.md §5). */
export type TerminateVmProblem = ProblemOf<'/v1/vms/{id}/terminate', 'post'>;

/**
 * An answer that was a problem, thrown by `unwrap`, the list iterators and the events feed
 * (docs/product.md §5: "Every error is application/problem+json").
 */
export class ApiProblemError<P extends Problem = Problem> extends Error {
  constructor(
    readonly problem: P,
    readonly httpStatus: number,
  ) {
    super(`${httpStatus} ${problem.code}: ${problem.detail}`);
    this.name = 'ApiProblemError';
  }
}

/**
 * Narrows a problem to the one of a code, e.g. `isProblem(error, 'eviction_set_changed')` gives
 * `error.terminate` its type (docs/product.md §5, the codes' extra fields).
 */
export function isProblem<E extends { code: string }, C extends E['code']>(error: E | undefined, code: C): error is Extract<E, { code: C }> {
  return error?.code === code;
}

/** Reads a body as a problem when it is one: an object with a string `code` (docs/product.md §5). */
export function readProblem(body: unknown, httpStatus: number): Problem {
  if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string') return body as Problem;
  // Not from our API (a proxy's page, say): described in the same shape so callers handle one thing.
  return {
    type: 'about:blank',
    title: 'Unexpected answer',
    status: httpStatus,
    detail: typeof body === 'string' ? body.slice(0, 200) : 'No problem body.',
    code: 'unexpected',
  };
}

/**
 * The data of an openapi-fetch result, or an `ApiProblemError` carrying the operation's typed
 * problem (docs/product.md §5).
 * @throws ApiProblemError when the answer was an error.
 */
export function unwrap<D, E>(result: { data?: D | undefined; error?: E | undefined; response: Response }): D {
  if (result.error !== undefined || result.data === undefined) {
    throw new ApiProblemError(readProblem(result.error, result.response.status) as Problem & E, result.response.status);
  }
  return result.data;
}
