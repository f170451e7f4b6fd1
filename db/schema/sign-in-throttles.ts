import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Sign-in attempts per subject — an account (`account:<email>`) or a client address
 * (`address:<ip>`) — in a window, and the lockout they led to (docs/product.md §9.3).
 * Kept in PostgreSQL so that every app instance counts against the same limit; a row is
 * forgotten once `expires_at` has passed (its window is over and it locks nothing).
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    subject: text('subject').primaryKey(),
    /** Attempts in the window: failures, and checks still in flight (counted before the password is checked). */
    attempts: integer('attempts').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, precision: 3 }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('sign_in_throttles_expires_idx').on(t.expiresAt)],
);
