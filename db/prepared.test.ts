import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from './client';
import { inReadOnlySnapshot, preparedSql, preparedStatement } from './prepared';
import { nodes, orgs } from './schema';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.db.insert(orgs).values({ id: 'org_a', name: 'A' });
  await tdb.db.insert(nodes).values({ id: 'n1', name: 'Node 1', ownerOrgId: 'org_a' });
});
afterAll(async () => tdb.close());
afterEach(() => {
  delete process.env.DATABASE_PREPARED_STATEMENTS;
});

const nodeName = preparedStatement((db) =>
  db
    .select({ name: nodes.name })
    .from(nodes)
    .where(eq(nodes.id, sql.placeholder('id')))
    .prepare('test_node_name'),
);
const named = sql`select count(*)::int as n from pg_prepared_statements where from_sql = false`;

/** One connection, so that pg_prepared_statements (per backend) is the statement's backend. */
async function withOneConnection<T>(fn: (db: TestDatabase['db']) => Promise<T>): Promise<T> {
  const { db, client } = createDb(tdb.url, { max: 1 });
  try {
    return await fn(db);
  } finally {
    await client.end();
  }
}

describe('prepared statements (db/prepared.ts)', () => {
  it('are named server-side statements by default, parsed once per connection', async () => {
    await withOneConnection(async (db) => {
      const before = (await db.execute<{ n: number }>(named))[0]!.n;
      expect(await nodeName(db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
      expect(await nodeName(db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
      expect(await nodeName(db, { id: 'nope' })).toEqual([]);
      // One more named statement for three runs: it was parsed once and bound thrice.
      expect((await db.execute<{ n: number }>(named))[0]!.n).toBe(before + 1);
    });
  });

  it('are never named with DATABASE_PREPARED_STATEMENTS=off (transaction-mode poolers)', async () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'off';
    await withOneConnection(async (db) => {
      expect(await nodeName(db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
      const raw = preparedSql<{ id: string }>('test_raw', () => sql`select id from nodes where id = ${sql.placeholder('id')}`);
      expect(await raw(db, { id: 'n1' })).toEqual([{ id: 'n1' }]);
      await db.transaction(async (tx) => {
        expect(await nodeName(tx, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
      });
      expect((await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_prepared_statements`))[0]!.n).toBe(0);
    });
  });

  it('run on the handle they are given: inside a transaction they see its uncommitted rows', async () => {
    await tdb.db
      .transaction(async (tx) => {
        await tx.update(nodes).set({ name: 'Renamed' }).where(eq(nodes.id, 'n1'));
        expect(await nodeName(tx, { id: 'n1' })).toEqual([{ name: 'Renamed' }]);
        expect(await nodeName(tdb.db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
        tx.rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Error && e.message === 'Rollback')) throw e;
      });
    expect(await nodeName(tdb.db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
  });
});

describe('inReadOnlySnapshot', () => {
  it('reads in one repeatable-read, read-only transaction that is never assigned a transaction id', async () => {
    const seen = await inReadOnlySnapshot(tdb.db, async (tx) => {
      const [row] = await tx.execute<{ xid: string | null; ro: string; iso: string }>(
        sql`select txid_current_if_assigned()::text as xid, current_setting('transaction_read_only') as ro, current_setting('transaction_isolation') as iso`,
      );
      await nodeName(tx, { id: 'n1' });
      const [after] = await tx.execute<{ xid: string | null }>(sql`select txid_current_if_assigned()::text as xid`);
      return { ...row!, after: after!.xid };
    });
    expect(seen).toEqual({ xid: null, ro: 'on', iso: 'repeatable read', after: null });
  });

  it('refuses to write', async () => {
    await expect(inReadOnlySnapshot(tdb.db, (tx) => tx.update(nodes).set({ name: 'x' }).where(eq(nodes.id, 'n1')))).rejects.toThrow();
    expect(await nodeName(tdb.db, { id: 'n1' })).toEqual([{ name: 'Node 1' }]);
  });
});
