import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-API-key request counts in fixed one-minute windows (docs/product.md §8 R5). Kept in PostgreSQL so
 * that every app instance counts against the same limit.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: text('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, precision: 3 }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);
