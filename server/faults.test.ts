/**
 * docs/product.md §8 R2: a database connection killed mid-request leaves all-or-nothing state,
 * the request answers 503 `service_unavailable` (problem+json, `Retry-After`), and a retry
 * with the same Idempotency-Key completes exactly once.
 *
 * How a verb is stopped at a known statement without a hook in production code: a second
 * connection holds a table lock that a late INSERT of the request's transaction needs (SHARE
 * conflicts with the INSERT's ROW EXCLUSIVE), so the request has run every earlier statement of
 * its transaction and waits there; the test finds that backend in pg_stat_activity (waiting on a Lock, on a
 * statement that inserts there — the idempotency record's also purges expired ones first, in a CTE), kills it with pg_terminate_backend, then lets go of the lock.
 */
import { createDb } from '@/db/client';
import { auditEvents, idempotencyRecords, notifications, reservationUnits, vms } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import net from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as placeRoute } from '@/app/v1/vms/route';
import { GET as listNodesRoute } from '@/app/v1/nodes/route';
import { POST as reclaimRoute } from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim/route';
import { DomainError } from './errors';
import { checkInvariants } from './testing/invariants';
import { useFreshScene } from './testing/fresh-scene';
import { callRoute, issueKeys } from './testing/rest';
import { ORG } from './testing/scene';
import { createCaller } from './trpc/root';

const scene = useFreshScene(() => new Date());
let keys: Record<string, string>;
/** The scene's rows come from factories, without audit events: hold only later changes to it. */
let auditSince: Date;

beforeAll(() => {
  process.env.PLATFORM_ORG_ID = ORG.platform;
  // One connection per request pool: the retry after a kill must reconnect that very pool.
  process.env.DATABASE_POOL_MAX = '1';
});
afterAll(() => {
  delete process.env.DATABASE_POOL_MAX;
});
beforeEach(async () => {
  keys = await issueKeys(scene().db, [ORG.owner, ORG.tenantA]);
  auditSince = new Date();
});

type Reply = Awaited<ReturnType<typeof callRoute>>;

function expectUnavailable(res: Reply) {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.json).toMatchObject({ status: 503, code: 'service_unavailable', title: 'Service unavailable', detail: expect.any(String) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(5);
  // Nothing of internals: no SQL, no driver message.
  expect(res.text).not.toMatch(/insert|select|57P01|terminating/i);
}

/**
 * Runs `request` while a second connection holds `table` in SHARE mode; once the request's
 * backend waits for that lock on an INSERT into `table`, kills the backend.
 * @returns the request's answer.
 */
async function killAtInsertInto(table: string, request: () => Promise<Reply>): Promise<Reply> {
  const { url, db } = scene();
  const blocker = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const held = await blocker.reserve();
    await held`begin`;
    await held.unsafe(`lock table ${table} in share mode`);
    const pending = request();
    let pid: number | undefined;
    for (let i = 0; i < 500 && pid === undefined; i++) {
      const [row] = await db.execute<{ pid: number }>(sql`
        select pid from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`%insert into "${table}"%`}`);
      pid = row?.pid;
      if (pid === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    if (pid === undefined) throw new Error(`the request never waited on its insert into ${table}`);
    await db.execute(sql`select pg_terminate_backend(${pid})`);
    await held`rollback`;
    held.release();
    return await pending;
  } finally {
    await blocker.end();
  }
}

describe('a connection killed in the middle of a reclaim', () => {
  const path = '/v1/nodes/n1/reservations/r1/reclaim';
  const reclaim = (key: string) =>
    callRoute(reclaimRoute, {
      method: 'POST',
      path,
      params: { nodeId: 'n1', id: 'r1' },
      key: keys[ORG.owner],
      body: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], reason: 'fault test' },
      headers: { 'idempotency-key': key },
    });

  it('answers 503, writes nothing, and the retry with the same key reclaims exactly once', async () => {
    const { db } = scene();
    // Killed after the verb, at the idempotency record the pipeline writes last in the same
    // transaction: the reclaim's one write statement has terminated the VMs, taken the units off
    // the market and written its audit event and notifications — all inside the transaction.
    const killed = await killAtInsertInto('idempotency_records', () => reclaim('fault-reclaim-1'));
    expectUnavailable(killed);

    expect(await checkInvariants(db, { auditSince })).toEqual([]);
    const running = await db.select({ id: vms.id }).from(vms).where(eq(vms.status, 'running'));
    expect(running.map((v) => v.id).sort()).toEqual(['vm-od', 'vm-res', 'vm-spot-a', 'vm-spot-b']);
    const released = await db
      .select({ unitId: reservationUnits.unitId })
      .from(reservationUnits)
      .where(and(eq(reservationUnits.reservationId, 'r1'), eq(reservationUnits.released, true)));
    expect(released.map((u) => u.unitId).sort()).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    expect(await db.select().from(auditEvents)).toHaveLength(0);
    expect(await db.select().from(notifications)).toHaveLength(0);
    expect(await db.select().from(idempotencyRecords)).toHaveLength(0);

    // The retry reconnects (the pool's one connection was killed) and does it, once.
    const retry = await reclaim('fault-reclaim-1');
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ terminated: ['vm-spot-a', 'vm-spot-b'], skipped: [], releasedUnitIds: [] });
    const replay = await reclaim('fault-reclaim-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retry.text);

    expect(await checkInvariants(db, { auditSince })).toEqual([]);
    const events = await db.select().from(auditEvents).where(eq(auditEvents.action, 'reservation.reclaim'));
    expect(events).toHaveLength(1);
    const ended = await db.select().from(vms).where(eq(vms.status, 'terminated'));
    expect(ended.map((v) => [v.id, v.terminationReason]).sort()).toEqual([
      ['vm-spot-a', 'reclaimed'],
      ['vm-spot-b', 'reclaimed'],
    ]);
    const notes = await db.select({ orgId: notifications.orgId }).from(notifications);
    expect(notes.map((n) => n.orgId).sort()).toEqual([ORG.tenantA, ORG.tenantB]);
  });
});

describe('a connection killed in the middle of a placement', () => {
  const place = (key: string) =>
    callRoute(placeRoute, {
      method: 'POST',
      path: '/v1/vms',
      key: keys[ORG.tenantA],
      body: { nodeId: 'n1', unitIds: ['gpu-3', 'gpu-6'], tier: 'spot' },
      headers: { 'idempotency-key': key },
    });

  it('answers 503, leaves no VM behind, and the retry with the same key places exactly one', async () => {
    const { db } = scene();
    const before = await db.select({ id: vms.id }).from(vms);
    // Killed at its audit event: the VM row and its unit rows are written inside the transaction.
    const killed = await killAtInsertInto('audit_events', () => place('fault-place-1'));
    expectUnavailable(killed);

    expect(await checkInvariants(db, { auditSince })).toEqual([]);
    expect(await db.select({ id: vms.id }).from(vms)).toEqual(before);
    expect(await db.execute(sql`select 1 from vm_units where unit_id in ('gpu-3', 'gpu-6')`)).toHaveLength(0);
    expect(await db.select().from(idempotencyRecords)).toHaveLength(0);

    const retry = await place('fault-place-1');
    expect(retry.status).toBe(201);
    const vmId = (retry.json as { id: string }).id;
    const replay = await place('fault-place-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retry.text);

    expect(await checkInvariants(db, { auditSince })).toEqual([]);
    const placed = await db.select({ id: vms.id }).from(vms).where(eq(vms.orgId, ORG.tenantA));
    expect(placed.map((v) => v.id).sort()).toEqual([vmId, 'vm-spot-a'].sort());
    const events = await db.select().from(auditEvents).where(eq(auditEvents.action, 'vm.place'));
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toMatchObject({ vmId });
  });
});

/** A TCP server on loopback that accepts connections and never says a word: a hung database. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = await silentServer();
  await s.close();
  return s.port;
}

describe('the database unreachable', () => {
  const withDatabaseUrl = async <T>(url: string, run: () => Promise<T>): Promise<T> => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url;
    try {
      return await run();
    } finally {
      process.env.DATABASE_URL = saved;
    }
  };

  it('REST: a refused connection answers 503 at once', async () => {
    const port = await closedPort();
    const started = performance.now();
    const res = await withDatabaseUrl(`postgres://postgres:postgres@127.0.0.1:${port}/gone`, () =>
      callRoute(listNodesRoute, { path: '/v1/nodes', key: keys[ORG.owner] }),
    );
    expectUnavailable(res);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('REST: a server that accepts and never answers is 503 within 5 s, not a hang', async () => {
    const hung = await silentServer();
    try {
      const started = performance.now();
      const res = await withDatabaseUrl(`postgres://postgres:postgres@127.0.0.1:${hung.port}/hung`, () =>
        callRoute(listNodesRoute, { path: '/v1/nodes', key: keys[ORG.owner] }),
      );
      expectUnavailable(res);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await hung.close();
    }
  });

  it('tRPC: the same 503, as SERVICE_UNAVAILABLE carrying the problem and Retry-After', async () => {
    const port = await closedPort();
    const gone = createDb(`postgres://postgres:postgres@127.0.0.1:${port}/gone`, { max: 1 });
    try {
      const caller = createCaller({ db: gone.db, principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u_owner' }, via: 'console' } });
      const outcome = await caller.nodes.get({ nodeId: 'n1' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(outcome).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const cause = (outcome as { cause?: unknown }).cause;
      expect(cause).toBeInstanceOf(DomainError);
      expect(cause).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: expect.any(Number), digest: 'service_unavailable' });
    } finally {
      await gone.client.end();
    }
  });
});
