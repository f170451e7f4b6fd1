/**
 * db/client.ts settings for running behind PgBouncer in transaction mode (docs/reliability.md):
 * `DATABASE_PREPARED_STATEMENTS=off` means no named prepared statement is ever created on a
 * server connection (one a later transaction on another connection could not find), and the
 * session's TimeZone comes as a startup parameter (which PgBouncer tracks), not a SET.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from './client';
import { nodes } from './schema';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase | undefined;
afterEach(async () => {
  delete process.env.DATABASE_PREPARED_STATEMENTS;
  await tdb?.close();
  tdb = undefined;
});

/** Runs parameterised queries, a transaction included, on a one-connection pool; counts the named statements that connection holds. */
async function namedStatementsAfterQueries(): Promise<{ named: number; timeZone: string }> {
  tdb = await createTestDatabase();
  const { db, client } = createDb(tdb.url, { max: 1 });
  try {
    for (const id of ['a', 'b', 'c'])
      await db
        .select()
        .from(nodes)
        .where(sql`${nodes.id} = ${id}`);
    await db.transaction(async (tx) => {
      await tx
        .select()
        .from(nodes)
        .where(sql`${nodes.ownerOrgId} = ${'org'}`);
      await tx.execute(sql`select ${1}::int as one`);
    });
    const [row] = await db.execute<{ named: number; tz: string }>(
      sql`select (select count(*)::int from pg_prepared_statements) as named, current_setting('TimeZone') as tz`,
    );
    return { named: row!.named, timeZone: row!.tz };
  } finally {
    await client.end();
  }
}

describe('DATABASE_PREPARED_STATEMENTS', () => {
  it('off: no pipelining either (a transaction-mode pooler strands pipelined queries), on: the driver default', () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'off';
    const off = createDb('postgres://u:p@127.0.0.1:1/x', { max: 1 });
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    const on = createDb('postgres://u:p@127.0.0.1:1/x', { max: 1 });
    const settings = (c: typeof on) => c.client.options as unknown as { max_pipeline: number; prepare: boolean };
    expect([settings(off).max_pipeline, settings(off).prepare]).toEqual([0, false]);
    expect([settings(on).max_pipeline, settings(on).prepare]).toEqual([100, true]);
  });

  it('reconnects after an outage within half a second, and gives up on a new connection after 3 s', () => {
    // postgres.js's own backoff grows to 20 s after repeated failures: after a 30 s outage the
    // first requests would still queue that long behind a connection waiting to retry.
    const { client } = createDb('postgres://u:p@127.0.0.1:1/x', { max: 1 });
    const o = client.options as unknown as { backoff: (retries: number) => number; connect_timeout: number };
    expect(Math.max(...[1, 5, 10, 30, 100].map((n) => o.backoff(n)))).toBeLessThanOrEqual(0.5);
    expect(o.connect_timeout).toBe(3);
  });

  it('off: no named statement is prepared on the connection', async () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'off';
    expect(await namedStatementsAfterQueries()).toEqual({ named: 0, timeZone: 'UTC' });
  });

  it('on (the default): the driver prepares named statements, so the check above can fail', async () => {
    const { named, timeZone } = await namedStatementsAfterQueries();
    expect(named).toBeGreaterThan(0);
    expect(timeZone).toBe('UTC');
  });
});
