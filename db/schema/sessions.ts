import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './orgs';

/**
 * A console sign-in. The session cookie (an Auth.js JWT) carries only this row's id; every
 * request checks the row is live, so signing out — here or everywhere — ends the session on
 * every app instance at once, however long the cookie itself would have lasted.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
  },
  // "Sign out everywhere" and the purge of expired rows at sign-in look sessions up by user.
  (t) => [index('sessions_user_idx').on(t.userId)],
);
