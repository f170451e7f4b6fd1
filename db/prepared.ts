import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PostgresJsSession, PostgresJsTransaction } from 'drizzle-orm/postgres-js';
import type { Sql, TransactionSql } from 'postgres';
import type { Db, DbOrTx, Tx } from './client';

type Executable = { execute: (placeholders?: Record<string, unknown>) => Promise<unknown> };
type DrizzleInternals = {
  client: Sql;
  dialect: never;
  schema: never;
  options: never;
  prepareQuery: (query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: false) => Executable;
};

/** The postgres.js client a drizzle handle runs on: the pool, or one transaction's connection. */
function sessionOf(db: DbOrTx): DrizzleInternals {
  return db._.session as unknown as DrizzleInternals;
}

/**
 * A hot statement whose SQL is built once and from then on only executed, on whichever handle
 * the caller holds (the pool or an open transaction), values bound through
 * `sql.placeholder(name)`.
 *
 * Why not drizzle's `.prepare()` alone: a drizzle prepared query is bound to the handle it was
 * built on, and every verb runs in its own transaction, so it would be built again for every
 * call (about a millisecond of app CPU on the reclaim path). Here the query is built on first
 * use and each call runs a copy whose client is the caller's connection.
 *
 * `.prepare(name)` also makes postgres.js send it as a named server-side statement, parsed and
 * planned once per connection (one round trip per call instead of two), unless
 * `DATABASE_PREPARED_STATEMENTS=off` (db/client.ts). postgres.js names and caches the
 * statement per connection by its text, so the name given to `.prepare()` only documents it.
 * Keep the SQL text fixed: lists go in as one array value (`= any(…)`), never `in (…)`.
 */
export function preparedStatement<Q extends Executable>(
  build: (db: DbOrTx) => Q,
): (db: DbOrTx, values: Parameters<Q['execute']>[0]) => ReturnType<Q['execute']> {
  let built: Q | undefined;
  return (db, values) => {
    built ??= build(db);
    const bound = Object.create(built) as Q & { client: Sql };
    bound.client = sessionOf(db).client;
    return bound.execute(values) as ReturnType<Q['execute']>;
  };
}

const dialect = new PgDialect();

/**
 * `preparedStatement` for SQL written by hand (data-modifying CTEs drizzle's builders cannot
 * express), values bound through `sql.placeholder(name)`.
 * @returns the rows as PostgreSQL sends them: column names as written, timestamps as strings.
 */
export function preparedSql<Row>(name: string, build: () => SQL): (db: DbOrTx, values: Record<string, unknown>) => Promise<Row[]> {
  const run = preparedStatement((db) => sessionOf(db).prepareQuery(dialect.sqlToQuery(build()), undefined, name, false));
  return (db, values) => run(db, values) as Promise<Row[]>;
}

/**
 * A row of `table` as a JSON object keyed by column name, to insert with
 * `jsonb_populate_record(null::<table>, $1)` from a prepared statement: one SQL text whatever
 * the values, and whatever the number of rows with `jsonb_populate_recordset`.
 */
export function toColumnRecord<T extends Table>(table: T, row: Partial<T['$inferInsert']>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, name] of columnNamesOf(table)) {
    const value = (row as Record<string, unknown>)[key];
    if (value !== undefined) out[name] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

// getTableColumns copies the table's column map on every call; a reclaim calls this for some
// twenty rows (its audit event, notifications and events), so each table's pairs are kept.
const columnNames = new WeakMap<Table, [key: string, name: string][]>();
function columnNamesOf(table: Table): [key: string, name: string][] {
  let names = columnNames.get(table);
  if (!names) columnNames.set(table, (names = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name])));
  return names;
}

/**
 * Runs `fn` in a read-only transaction on one consistent snapshot (`BEGIN ISOLATION LEVEL
 * REPEATABLE READ READ ONLY`, sent with the BEGIN: no extra round trip). It takes no row
 * locks and is never assigned a transaction id, so it writes no WAL and needs no commit
 * flush. Inside an open transaction it runs there (as a savepoint), seeing what that one sees.
 */
export function inReadOnlySnapshot<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (db instanceof PostgresJsTransaction) return (db as Tx).transaction(fn);
  const session = sessionOf(db as Db);
  return session.client.begin('isolation level repeatable read read only', (client: TransactionSql) => {
    // drizzle's own transaction() would send the mode as a second statement after BEGIN.
    const inner = new PostgresJsSession(client as unknown as Sql, session.dialect, session.schema, session.options);
    return fn(new PostgresJsTransaction(session.dialect, inner as never, session.schema) as unknown as Tx);
  }) as Promise<T>;
}

/** `values` as one `text[]` in a raw template (drizzle expands a bare array into a row of parameters). */
export function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}
