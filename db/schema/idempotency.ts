import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Stored responses of requests sent with `Idempotency-Key`, scoped to (acting org, method,
 * path) and replayed byte for byte for 24 h (docs/product.md §5 Idempotency). Written in the same
 * transaction as the request's effect; later writers purge expired ones, a few per request.
 */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    orgId: text('org_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.method, t.path, t.key] }),
    // Writers purge records older than 24 h, oldest first (server/rest/idempotency.ts).
    index('idempotency_records_created_idx').on(t.createdAt),
  ],
);
