import { z } from 'zod';

/**
 * An ISO 8601 UTC timestamp (`Z`, four-digit year) from 1970 on, as a Date. Earlier years are no
 * reservation's business, and the driver reads years below 100 back with JavaScript's
 * two-digit-year rule (0049 → 2049), so they never reach PostgreSQL.
 */
export const Timestamp = z.iso
  .datetime({ message: 'must be an ISO 8601 UTC timestamp such as 2026-12-01T00:00:00.000Z' })
  .refine((s) => s >= '1970', 'must be in 1970 or later')
  .transform((s) => new Date(s));
