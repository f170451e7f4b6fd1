import { createDb } from '@/db/client';
import { vms, vmUnits } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { buildScene, ctxFor, ORG, T0 } from '../testing/scene';
import { placeVm } from '../vms/place';
import { reclaim } from './reclaim';

// docs/product.md §5.1: "A concurrent spot placement either commits before the reclaim (and is
// terminated by it) or fails after it; it can never land on a reclaimed unit."
let tdb: TestDatabase;
let second: ReturnType<typeof createDb>;

beforeEach(async () => {
  tdb = await createTestDatabase();
  await buildScene(tdb.db);
  second = createDb(tdb.url, { max: 2 });
});
afterEach(async () => {
  await second.client.end();
  await tdb.close();
});

async function waitUntilBlocked(db: TestDatabase['db'], marker: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like ${'%' + marker + '%'}`,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the placement never waited on the reclaim');
}

describe('spot placement racing a reclaim (two connections)', () => {
  it('a placement that arrives during the reclaim waits, then fails: it never lands on a reclaimed unit', async () => {
    let placement: Promise<unknown> | undefined;
    await tdb.db.transaction(async (tx) => {
      // Connection 1: reclaim gpu-3 (released, idle) and hold the transaction open.
      const res = await reclaim({ ctx: { ...ctxFor(tdb.db, ORG.owner), db: tx }, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } });
      expect(res.releasedUnitIds).not.toContain('gpu-3');
      // Connection 2: a spot placement on gpu-3, which still reads as released to others.
      placement = placeVm({ ctx: ctxFor(second.db, ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } }).catch((e: unknown) => e);
      await waitUntilBlocked(tdb.db, 'nodes');
    });
    const outcome = await placement;
    expect(outcome).toBeInstanceOf(DomainError);
    expect((outcome as DomainError).code).toBe('unit_unavailable');
    const onUnit = await tdb.db
      .select()
      .from(vmUnits)
      .where(and(eq(vmUnits.unitId, 'gpu-3'), eq(vmUnits.running, true)));
    expect(onUnit).toHaveLength(0);
  });

  it('a reclaim that waits on a placement holding the node lock reads after it: the VM placed meanwhile is terminated', async () => {
    // The reclaim's read of the reservation and its VMs (./reclaim.ts) must take its snapshot
    // once the node lock is held, so a placement committed while it waited is seen and ended.
    let reclaiming: Promise<Awaited<ReturnType<typeof reclaim>>> | undefined;
    let placedId = '';
    await second.db.transaction(async (tx) => {
      const vm = await placeVm({ ctx: { ...ctxFor(second.db, ORG.tenantA), db: tx }, input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
      placedId = vm.id;
      reclaiming = reclaim({ ctx: ctxFor(tdb.db, ORG.owner), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } });
      await waitUntilBlocked(tdb.db, 'nodes');
    });
    const res = await reclaiming!;
    expect(res.terminated).toEqual([placedId]);
    const [row] = await tdb.db.select({ status: vms.status }).from(vms).where(eq(vms.id, placedId));
    expect(row?.status).toBe('terminated');
  });

  it('a placement that commits first is terminated by the reclaim', async () => {
    const vm = await placeVm({ ctx: ctxFor(second.db, ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
    const res = await reclaim({ ctx: ctxFor(tdb.db, ORG.owner), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } });
    expect(res.terminated).toEqual([vm.id]);
  });

  it('under many concurrent rounds, no running spot VM ever sits on a reclaimed unit', async () => {
    for (let round = 0; round < 15; round++) {
      // Put gpu-3 back on the market for the round (direct write: the scene's state).
      await tdb.db.execute(sql`update reservation_units set released = true where reservation_id = 'r1' and unit_id = 'gpu-3'`);
      const [placed, reclaimed] = await Promise.allSettled([
        placeVm({ ctx: ctxFor(second.db, ORG.tenantA, T0), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } }),
        reclaim({ ctx: ctxFor(tdb.db, ORG.owner, T0), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } }),
      ]);
      expect(reclaimed.status).toBe('fulfilled');
      if (placed.status === 'fulfilled') {
        // It committed first, so the reclaim must have ended it.
        const value = reclaimed.status === 'fulfilled' ? reclaimed.value : undefined;
        expect(value?.terminated).toEqual([placed.value.id]);
      } else {
        expect((placed.reason as DomainError).code).toBe('unit_unavailable');
      }
      const running = await tdb.db
        .select()
        .from(vmUnits)
        .innerJoin(vms, eq(vms.id, vmUnits.vmId))
        .where(and(eq(vmUnits.unitId, 'gpu-3'), eq(vmUnits.running, true)));
      expect(running).toHaveLength(0);
    }
  });
});
