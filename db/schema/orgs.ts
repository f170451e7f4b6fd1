import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A person's role in an org (docs/product.md §2 Roles): `admin` may do all the org may plus
 * members, keys and webhooks; `member` every action the org may take; `viewer` sees, takes none.
 * The vocabulary lives here, beside its CHECK, so db/ needs nothing of server/.
 */
export const membershipRoles = ['admin', 'member', 'viewer'] as const;
export type MembershipRole = (typeof membershipRoles)[number];

/**
 * What an API key may call (docs/product.md §2 Scopes), fixed at its creation. Keys made
 * before scopes existed hold all four (the column's default, migration 0016).
 */
export const apiKeyScopes = ['read', 'reservations:write', 'vms:write', 'keys:manage'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** An organisation: node owner, reservation holder, tenant or the platform itself. */
export const orgs = pgTable('orgs', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** A console user; the password hash is scrypt in PHC-like form (see server/auth/password.ts). */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Existing memberships became `admin` (migration 0016), so nothing changed for them. */
    role: text('role').$type<MembershipRole>().notNull().default('admin'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.orgId] }),
    index('memberships_org_idx').on(t.orgId),
    check('memberships_role', sql`${t.role} in ('admin', 'member', 'viewer')`),
  ],
);

/**
 * An invitation to join an org (docs/product.md §2 Members): a single-use link shown once to the
 * admin who made it. Only the SHA-256 of its 256-bit secret is kept (like API keys'); it lapses
 * 7 days after creation and is spent by the first account that accepts it.
 */
export const memberInvites = pgTable(
  'member_invites',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    role: text('role').$type<MembershipRole>().notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    createdByUserId: text('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }),
    acceptedByUserId: text('accepted_by_user_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('member_invites_org_idx').on(t.orgId, t.createdAt), check('member_invites_role', sql`${t.role} in ('admin', 'member', 'viewer')`)],
);

/**
 * API keys act as exactly one org. Only the SHA-256 of the secret is kept: keys are 256-bit
 * random, so a fast hash is enough (no dictionary to stretch against) and lookups stay O(1).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    /**
     * When the key last authenticated a request, to the minute: authentication writes it at
     * most once a minute per key (server/api-keys/authenticate.ts), so a busy key costs no
     * row write per request. Null until first used.
     */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    /**
     * Who created the key (docs/product.md §5 Objects `createdBy`): at most one of a user, an
     * API key of the same org, or a system job; none for keys issued before it was recorded (the
     * seed's, tests'). Ids only, no foreign keys: a key outlives nothing it names (keys are never
     * deleted but with their org, which takes its creator keys with it).
     */
    createdByUserId: text('created_by_user_id'),
    createdByApiKeyId: text('created_by_api_key_id'),
    createdByJob: text('created_by_job'),
    /**
     * What the key may call (docs/product.md §2 Scopes), fixed at creation. The default holds all
     * four, so keys made before scopes existed keep doing what they did.
     */
    scopes: text('scopes')
      .array()
      .$type<ApiKeyScope[]>()
      .notNull()
      .default(sql`array['read', 'reservations:write', 'vms:write', 'keys:manage']::text[]`),
  },
  (t) => [
    index('api_keys_org_idx').on(t.orgId),
    // The cap on active keys counts these under the org's row lock (server/api-keys/create.ts).
    index('api_keys_active_org_idx')
      .on(t.orgId)
      .where(sql`${t.revokedAt} is null`),
    // The creation rate counts an org's keys of the last minute; the list walks an org's keys newest first.
    index('api_keys_org_created_idx').on(t.orgId, t.createdAt),
    check('api_keys_scopes', sql`${t.scopes} <@ array['read', 'reservations:write', 'vms:write', 'keys:manage']::text[]`),
    check('api_keys_one_creator', sql`num_nonnulls(${t.createdByUserId}, ${t.createdByApiKeyId}, ${t.createdByJob}) <= 1`),
  ],
);
