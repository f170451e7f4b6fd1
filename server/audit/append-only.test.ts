/**
 * Audit events are append-only in the database (docs/product.md §7, §9.3; migration
 * 0008): the application's own connection may insert them, and every UPDATE, DELETE and
 * TRUNCATE is refused by a trigger with one clear message — whoever sends it, a verb or a
 * hand-typed statement. A reset recreates the database instead (db/recreate.ts).
 */
import { recreateDatabase } from '@/db/recreate';
import { auditEvents } from '@/db/schema';
import { createTestDatabase } from '@/db/testing';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { seedDemoFleet } from '../demo';
import { registerNode } from '../nodes/register';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG, T0 } from '../testing/scene';
import { gpuUnits } from '@/db/factories';

const scene = useFreshScene();
const db = () => scene().db;

/** The error PostgreSQL answers `statement` with (message and SQLSTATE), or null when it succeeds. */
async function refusal(statement: string): Promise<{ message: string; code: string } | null> {
  try {
    await db().execute(sql.raw(statement));
    return null;
  } catch (e) {
    const cause = (e as { cause?: { message: string; code: string } }).cause ?? (e as { message: string; code: string });
    return { message: cause.message, code: cause.code };
  }
}

const count = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
  )[0]!.n;

describe('audit_events is append-only', () => {
  it('a verb appends its event; UPDATE, DELETE and TRUNCATE are each refused with the trigger’s message, and nothing changes', async () => {
    await registerNode({ ctx: ctxFor(db(), ORG.platform, T0), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units: gpuUnits(2) } });
    const before = await db().select().from(auditEvents).orderBy(auditEvents.seq);
    expect(before.at(-1)).toMatchObject({ action: 'node.register', nodeId: 'n9' });

    for (const [op, statement] of [
      ['UPDATE', `update audit_events set reason = 'rewritten' where node_id = 'n9'`],
      ['UPDATE', `update audit_events set at = at - interval '1 day'`],
      ['DELETE', `delete from audit_events where node_id = 'n9'`],
      ['DELETE', `delete from audit_events`],
      ['TRUNCATE', `truncate audit_events`],
      // Emptying every table at once, as the demo seed once did.
      ['TRUNCATE', `truncate nodes, audit_events restart identity cascade`],
    ] as const) {
      expect(await refusal(statement), statement).toEqual({ message: `audit_events is append-only: ${op} is not allowed`, code: '42501' });
    }
    expect(await db().select().from(auditEvents).orderBy(auditEvents.seq)).toEqual(before);
    // The refused TRUNCATE took the other tables with it into its rollback.
    expect(await db().execute(sql`select id from nodes where id = 'n9'`)).toHaveLength(1);
  });

  it('an UPDATE that changes nothing is refused too; a DELETE that matches no row has nothing to refuse', async () => {
    await registerNode({ ctx: ctxFor(db(), ORG.platform, T0), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units: gpuUnits(2) } });
    const n = await count();
    // No row matches: no row trigger fires, so nothing is refused and nothing changes.
    expect(await refusal(`delete from audit_events where id = 'evt_nonexistent'`)).toBeNull();
    // A row that matches is refused even when the new value equals the old.
    expect(await refusal(`update audit_events set reason = reason`)).toMatchObject({ code: '42501' });
    expect(await count()).toBe(n);
  });

  it('inserting is still allowed (the verbs’ writeAuditEvent)', async () => {
    const n = await count();
    await db().insert(auditEvents).values({
      id: 'evt_appended',
      at: T0,
      action: 'node.register',
      actorOrgId: ORG.platform,
      actorJob: 'test',
      via: 'schedule',
      nodeId: 'n1',
      unitIds: [],
      details: {},
    });
    expect(await count()).toBe(n + 1);
    expect(await db().select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.id, 'evt_appended'))).toHaveLength(1);
  });
});

describe('recreateDatabase (how the demo seed resets instead of emptying tables)', () => {
  it('drops a seeded database with its open connections and creates it empty', async () => {
    const tdb = await createTestDatabase();
    const holder = postgres(tdb.url, { max: 1, onnotice: () => {} });
    try {
      await seedDemoFleet(tdb.db, new Date());
      await holder`select 1`; // an open connection, as a running dev server would hold
      await recreateDatabase(tdb.url);
      const fresh = postgres(tdb.url, { max: 1, onnotice: () => {} });
      const tables = await fresh`select count(*)::int as n from pg_tables where schemaname = 'public'`;
      await fresh.end();
      expect(tables[0]!.n).toBe(0);
      // The old connection was ended; postgres.js reconnects, to the new, empty database.
      expect(await holder`select count(*)::int as n from pg_tables where schemaname = 'public'`).toEqual([{ n: 0 }]);
    } finally {
      await holder.end({ timeout: 1 }).catch(() => {});
      await tdb.close();
    }
  });

  it('refuses the maintenance database and names that are no plain identifier', async () => {
    const url = new URL(scene().url);
    for (const name of ['postgres', 'template1']) {
      url.pathname = `/${name}`;
      await expect(recreateDatabase(url.toString())).rejects.toThrow(/Refusing to drop/);
    }
    url.pathname = '/a%22b';
    await expect(recreateDatabase(url.toString())).rejects.toThrow(/must match/);
  });
});
