import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './orgs';

/**
 * A browser a user has signed in with (docs/product.md §9.3 "Known devices"). The browser keeps
 * this row's id with an HMAC under AUTH_SECRET in a long-lived cookie; presenting it for the
 * same account exempts the browser from the account's lockout and the site-wide failure budget,
 * and gives it a failure counter of its own (`sign_in_throttles` subject `device:<id>`), so a
 * third party guessing the password cannot lock the account's own browsers out.
 * "Sign out everywhere" revokes the user's rows.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
  },
  // Sign-out everywhere revokes by user; the sign-in check reads by id.
  (t) => [index('known_devices_user_idx').on(t.userId)],
);
