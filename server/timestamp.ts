import { z } from 'zod';

/**
 * An ISO 8601 UTC timestamp (`Z`, four-digit year) from 1970 on, as a Date. Earlier years are no
 * reservation's business, and the driver reads years below 100 back with JavaScript's
 * two-digit-year rule (0049 → 2049), so they never reach PostgreSQL.
 */
export const Timestamp = z.iso
  // `abort`: what is no timestamp at all is told that once, not also that its year is early.
  .datetime({ message: 'must be an ISO 8601 UTC timestamp such as 2026-12-01T00:00:00.000Z', abort: true })
  // A pattern rather than a comparison, so that the document states the floor too.
  .regex(/^(?:19[7-9]\d|[2-9]\d{3})-/, 'must be in 1970 or later')
  .meta({ format: 'date-time' })
  .transform((s) => new Date(s));

/**
 * The last instant a four-digit-year ISO 8601 string names (`toISOString` writes a later one as
 * `+010000-…`, which PostgreSQL refuses): a default window end computed from a `from` the schema
 * took stops here instead of failing the read.
 */
export const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** `at` plus `ms`, never past LAST_INSTANT_MS. */
export function laterBy(at: Date, ms: number): Date {
  return new Date(Math.min(at.getTime() + ms, LAST_INSTANT_MS));
}
