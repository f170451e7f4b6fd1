/**
 * The CLI's exit codes, one per class of problem (docs/product.md §5.9), so that scripts can
 * branch on them without reading the output.
 */
export const exitCodes = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  unauthorized: 3,
  notFound: 4,
  conflict: 5,
  unavailable: 6,
  declined: 7,
} as const;

/** The `--help` text that states them (docs/product.md §5.9). */
export const exitCodesHelp = `
Exit codes:
  0  ok
  1  unexpected: a network failure, a 5xx, anything else
  2  usage or invalid request: a bad flag, 400, 413, 415, 422
  3  unauthenticated or forbidden: no key, 401, 403 (insufficient_scope included)
  4  not found: 404, 410 (cursor_expired)
  5  conflict: 409 (eviction_set_changed, unit_occupied, …)
  6  rate limited or unavailable: 429, 503 (after the SDK's retries)
  7  not confirmed (no yes at the prompt, or no input left): nothing changed`;

/** The exit code of an HTTP problem status (docs/product.md §5.9). */
export function readExitCode(httpStatus: number): number {
  if (httpStatus === 401 || httpStatus === 403) return exitCodes.unauthorized;
  if (httpStatus === 404 || httpStatus === 410) return exitCodes.notFound;
  if (httpStatus === 409) return exitCodes.conflict;
  if (httpStatus === 429 || httpStatus === 503) return exitCodes.unavailable;
  if (httpStatus >= 400 && httpStatus < 500) return exitCodes.usage;
  return exitCodes.unexpected;
}
