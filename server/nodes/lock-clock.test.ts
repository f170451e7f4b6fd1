import { createDb } from '@/db/client';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Ctx } from '../context';
import { reclaim } from '../reservations/reclaim';
import { buildScene, ctxFor, ORG } from '../testing/scene';
import { timesFollowCommitOrder } from '../testing/invariants';
import { placeVm } from '../vms/place';

// docs/product.md §4 and §9 c: writers re-read the clock once they hold the node lock, so that
// recorded times follow commit order across instances. Read in the same SELECT that takes the
// lock, clock_timestamp() was evaluated before the statement waited for the lock, so a writer
// that queued behind another recorded a time from before that one's commit — here a VM
// "started" before the reclaim it had waited for. (Found while writing the storm's ordering
// checks, server/testing/invariants.ts, which therefore order events by audit seq.)

let tdb: TestDatabase;
let second: ReturnType<typeof createDb>;
beforeEach(async () => {
  tdb = await createTestDatabase();
  // The database's clock is the one under test, so the scene is built around it.
  await buildScene(tdb.db, new Date());
  second = createDb(tdb.url, { max: 2 });
});
afterEach(async () => {
  await second.client.end();
  await tdb.close();
});

/** A context on the database clock, as the transports build it (docs/product.md §4). */
const onDatabaseClock = (ctx: Ctx): Ctx => ({ ...ctx, clock: 'database' });

async function waitUntilBlocked(marker: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await tdb.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like ${'%' + marker + '%'}`,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the placement never waited for the node lock');
}

it('a writer that waited for the node lock records a time after the commit it waited for', async () => {
  let placement: ReturnType<typeof placeVm> | undefined;
  let committedAfter = new Date(0);
  await tdb.db.transaction(async (tx) => {
    // Connection 1: a reclaim holds the node lock (it locks the node row, never updates it).
    const r = await reclaim({
      ctx: onDatabaseClock({ ...ctxFor(tdb.db, ORG.managing, new Date()), db: tx }),
      input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] },
    });
    expect(r.releasedUnitIds).not.toContain('gpu-3');
    // Connection 2: a placement on another unit queues behind it.
    placement = placeVm({ ctx: onDatabaseClock(ctxFor(second.db, ORG.tenantA, new Date())), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } });
    await waitUntilBlocked('nodes');
    await tx.execute(sql`select pg_sleep(0.2)`);
    const [row] = await tx.execute<{ now: string }>(sql`select clock_timestamp()::text as now`);
    committedAfter = new Date(row!.now);
  });
  const vm = await placement!;
  expect(new Date(vm.startedAt).getTime()).toBeGreaterThanOrEqual(committedAfter.getTime());
  expect(await timesFollowCommitOrder(tdb.db, { now: new Date().toISOString(), auditSince: null })).toEqual([]);
});
