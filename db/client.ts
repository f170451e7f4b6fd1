import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction handle; verbs accept either, and nest as savepoints when given a Tx. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Whether the driver may use named prepared statements: `DATABASE_PREPARED_STATEMENTS=off`
 * turns them off (default on). Behind PgBouncer in transaction mode a named statement lives on
 * one server connection while the next transaction may run on another, so they must be off
 * there (docs/reliability.md). The one setting: postgres.js's `prepare` and drizzle's
 * `.prepare()` both follow it, and so does pipelining (see createDb).
 */
export function preparedStatementsEnabled(): boolean {
  return (process.env.DATABASE_PREPARED_STATEMENTS ?? 'on').trim().toLowerCase() !== 'off';
}

/**
 * The URL for what needs a session of its own (LISTEN, session advisory locks, migrations):
 * `DATABASE_DIRECT_URL`, which bypasses a transaction-mode pooler, else `DATABASE_URL`.
 */
export function directDatabaseUrl(): string | undefined {
  return process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL;
}

/** Seconds to wait for a new connection before the request fails (503), instead of postgres.js's 30. */
const CONNECT_TIMEOUT_SECONDS = 3;

/**
 * Opens a connection pool to `url`.
 * @returns the drizzle handle and the raw `postgres` client (to `end()` it).
 */
export function createDb(url: string, options: { max?: number } = {}): { db: Db; client: postgres.Sql } {
  // `max_pipeline` is a postgres.js option its type declarations leave out.
  const settings: postgres.Options<Record<string, never>> & { max_pipeline: number } = {
    max: options.max ?? 10,
    onnotice: () => {},
    // Timestamps travel as timestamptz; keep the session in UTC so now() prints the same
    // everywhere. A startup parameter, not a SET: PgBouncer tracks TimeZone per client and
    // sets it on whichever server connection a transaction gets.
    connection: { TimeZone: 'UTC' },
    // The one switch for server-side prepared statements (see preparedStatementsEnabled).
    prepare: preparedStatementsEnabled(),
    // postgres.js pipelines queries onto a busy connection (up to 100). Through PgBouncer 1.18
    // in transaction mode, queries pipelined behind another never got their answer (the
    // --pgbouncer storm hung console batches for 30 s; a standalone repro with 24 concurrent
    // batches hung every one, none with pipelining off). Off with the setting above.
    max_pipeline: preparedStatementsEnabled() ? 100 : 0,
    // Requests must never hang on an unreachable database (docs/product.md §5: 503). A refused
    // connection fails at once; a host that does not answer, after this long.
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // postgres.js waits before reconnecting, growing with each failure up to 20 s: after a
    // 30 s outage a request would queue that long behind a connection waiting to retry. Keep
    // the wait under a second, so requests fail fast during an outage and recover right after.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    // Close connections idle this long, so that ones a restarted server or a pooler dropped
    // do not linger; a closed one is reopened on next use.
    idle_timeout: 60,
  };
  const client = postgres(url, settings);
  return { db: drizzle(client, { schema }), client };
}

const globalForDb = globalThis as unknown as { __dbPools?: Map<string, { db: Db; client: postgres.Sql }> };

/**
 * The process-wide pool for `DATABASE_URL`, created on first use (kept on globalThis so
 * Next's dev reloads do not leak pools; keyed by URL so test files can point elsewhere).
 * @throws Error when DATABASE_URL is not set.
 */
export function getDb(): Db {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const pools = (globalForDb.__dbPools ??= new Map());
  let pool = pools.get(url);
  if (!pool) {
    pool = createDb(url, { max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
    pools.set(url, pool);
  }
  return pool.db;
}
