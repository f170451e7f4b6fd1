/**
 * Idempotency records are remembered 24 h (docs/product.md §5 Idempotency, §8 R6), and purged
 * after that by later writers — at most 100 per request, with `FOR UPDATE SKIP LOCKED` — even
 * when their key is never reused (issue 18: they were only purged when the same key came back).
 */
import { idempotencyRecords } from '@/db/schema';
import { count, eq, lt, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, T0 } from '../testing/scene';
import { PURGE_BATCH, runIdempotent, TTL_MS } from './idempotency';

const scene = useFreshScene();
const db = () => scene().db;
const ok = async () => ({ status: 200, body: '{"ok":true}' });
const scope = (key: string, orgId: string = ORG.owner) => ({ orgId, method: 'POST', path: '/v1/vms', key });
const ago = (ms: number) => new Date(T0.getTime() - ms);

/** `n` records of `orgId` made `age` ms before T0. */
async function records(n: number, age: number, orgId: string, prefix: string) {
  await db()
    .insert(idempotencyRecords)
    .values(Array.from({ length: n }, (_, i) => ({ ...scope(`${prefix}-${i}`, orgId), requestHash: 'h', status: 200, body: '{}', createdAt: ago(age + i) })));
}
const expired = async () =>
  (
    await db()
      .select({ n: count() })
      .from(idempotencyRecords)
      .where(lt(idempotencyRecords.createdAt, ago(TTL_MS - 1)))
  )[0]!.n;
/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const total = async () => (await db().select({ n: count() }).from(idempotencyRecords))[0]!.n;

describe('expired idempotency records are purged by writers', () => {
  it('each write purges at most 100 records older than 24 h, oldest first, any org’s; younger ones stay', async () => {
    await records(150, TTL_MS + 3_600_000, ORG.tenantA, 'old');
    await records(3, TTL_MS - 3_600_000, ORG.tenantB, 'young');
    // Exactly 24 h old is expired too: it would no longer be replayed.
    await db()
      .insert(idempotencyRecords)
      .values({ ...scope('edge', ORG.other), requestHash: 'h', status: 200, body: '{}', createdAt: ago(TTL_MS) });
    expect(await expired()).toBe(151);

    await runIdempotent(db(), scope('new-1'), 'f1', T0, ok);
    expect(PURGE_BATCH).toBe(100);
    expect(await expired()).toBe(51);
    // The oldest went first: what is left is the youngest of the expired.
    const left = await db().select({ key: idempotencyRecords.key }).from(idempotencyRecords).where(eq(idempotencyRecords.orgId, ORG.tenantA));
    expect(left.map((r) => r.key).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `old-${i}`).sort());

    await runIdempotent(db(), scope('new-2'), 'f2', T0, ok);
    expect(await expired()).toBe(0);
    // 3 young ones and the 2 just written.
    expect(await total()).toBe(5);
    expect(await db().select({ key: idempotencyRecords.key }).from(idempotencyRecords).where(eq(idempotencyRecords.orgId, ORG.tenantB))).toHaveLength(3);
  });

  it('a replay writes nothing and purges nothing; a read-mode (dry run) record purges like any write', async () => {
    await runIdempotent(db(), scope('k'), 'f', T0, ok);
    await records(5, TTL_MS + 1000, ORG.tenantA, 'old');
    const replay = await runIdempotent(db(), scope('k'), 'f', T0, ok);
    expect(replay.replayed).toBe(true);
    expect(await expired()).toBe(5);
    await runIdempotent(db(), scope('dry'), 'f', T0, ok, 'read');
    expect(await expired()).toBe(0);
  });

  it('skips records another transaction holds, and never waits for it', async () => {
    await records(10, TTL_MS + 1000, ORG.tenantA, 'old');
    const release = deferred();
    const locked = deferred();
    // Another writer is purging (or replacing) old-0 right now: it holds its row.
    const holder = db().transaction(async (tx) => {
      await tx.execute(sql`select 1 from idempotency_records where org_id = ${ORG.tenantA} and key = 'old-0' for update`);
      locked.resolve();
      await release.promise;
    });
    await locked.promise;
    try {
      const write = runIdempotent(db(), scope('while-locked'), 'f', T0, ok);
      const outcome = await Promise.race([write.then(() => 'done'), new Promise((r) => setTimeout(() => r('waited'), 5_000))]);
      expect(outcome).toBe('done');
    } finally {
      release.resolve();
      await holder;
    }
    const left = await db().select({ key: idempotencyRecords.key }).from(idempotencyRecords).where(eq(idempotencyRecords.orgId, ORG.tenantA));
    expect(left.map((r) => r.key)).toEqual(['old-0']);
  });

  it('a key is remembered 24 h: replayed until then, a new request after', async () => {
    const first = await runIdempotent(db(), scope('day'), 'f', T0, ok);
    expect(first.replayed).toBe(false);
    expect((await runIdempotent(db(), scope('day'), 'f', new Date(T0.getTime() + TTL_MS - 1), ok)).replayed).toBe(true);
    const later = await runIdempotent(db(), scope('day'), 'other request', new Date(T0.getTime() + TTL_MS), async () => ({
      status: 201,
      body: '{"again":true}',
    }));
    expect(later).toEqual({ status: 201, body: '{"again":true}', replayed: false });
  });
});
