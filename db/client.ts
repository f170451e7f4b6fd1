import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction handle; verbs accept either, and nest as savepoints when given a Tx. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Opens a connection pool to `url`.
 * @returns the drizzle handle and the raw `postgres` client (to `end()` it).
 */
export function createDb(url: string, options: { max?: number } = {}): { db: Db; client: postgres.Sql } {
  const client = postgres(url, {
    max: options.max ?? 10,
    // The one switch for server-side prepared statements (see preparedStatementsEnabled).
    prepare: preparedStatementsEnabled(),
    onnotice: () => {},
    // Timestamps travel as timestamptz; keep the session in UTC so now() prints the same everywhere.
    connection: { TimeZone: 'UTC' },
  });
  return { db: drizzle(client, { schema }), client };
}

/**
 * Whether statements built with `.prepare()` (db/prepared.ts) become named server-side
 * statements, parsed and planned once per connection. `DATABASE_PREPARED_STATEMENTS=off`
 * turns them off for deployments behind a transaction-mode pooler (PgBouncer 1.18 hands each
 * transaction any server connection, where a statement named on another does not exist);
 * queries then go unnamed, as every unprepared query always does.
 */
export function preparedStatementsEnabled(): boolean {
  return (process.env.DATABASE_PREPARED_STATEMENTS ?? 'on').trim().toLowerCase() !== 'off';
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
