import { createDb } from '@/db/client';
import { events } from '@/db/schema';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { reclaim } from '../reservations/reclaim';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor, hours } from '../testing/scene';
import { listEvents } from './feed';
import { stopEventsListeners, waitForEvents } from './listen';
import { notifyAfterCommit } from './notify';
import { sql } from 'drizzle-orm';
import { writeEvents, type EventFact } from './write';

// Built around the real clock: the feed reads PostgreSQL's clock for the cursor's age.
const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const feed = (orgId: string, input: Parameters<typeof listEvents>[0]['input'] = {}) => listEvents({ ctx: ctxFor(db(), orgId, BASE), input });

afterAll(stopEventsListeners);

const fact = (n: number): EventFact => ({
  type: 'node.registered',
  at: BASE,
  nodeId: `node-${n}`,
  data: { nodeId: `node-${n}`, name: `Node ${n}`, ownerOrgId: ORG.owner, unitIds: ['gpu-0'], topologyGen: 1 },
  to: { ownerOrgId: ORG.owner },
});

describe('the outbox (docs/product.md §5.7)', () => {
  it('a reclaim writes its events in its own statement, each recipient the fields it may see', async () => {
    await reclaim({
      ctx: ctxFor(db(), ORG.managing, hours(1, BASE)),
      input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2'], reason: 'back' },
    });
    const rows = await db().select().from(events).orderBy(asc(events.seq));
    const of = (type: string, orgId: string) => rows.filter((r) => r.type === type && r.orgId === orgId).map((r) => r.data);

    const full = { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2'], terminated: ['vm-spot-a', 'vm-spot-b'], skipped: [], reason: 'back' };
    for (const org of [ORG.platform, ORG.owner, ORG.managing]) expect(of('reservation.reclaimed', org)).toEqual([full]);
    // The audience sees the reservation, not the VMs on it.
    expect(of('reservation.reclaimed', ORG.audience)).toEqual([{ nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2'], reason: 'back' }]);
    for (const org of [ORG.tenantA, ORG.tenantB, ORG.other]) expect(of('reservation.reclaimed', org)).toEqual([]);

    // Each evicted tenant learns of its own VM, never the holder's reservation.
    const at = hours(1, BASE).toISOString();
    expect(of('vm.reclaimed', ORG.tenantA)).toEqual([
      { vmId: 'vm-spot-a', nodeId: 'n1', unitIds: ['gpu-0', 'gpu-1'], orgId: ORG.tenantA, terminatedAt: at, reason: 'back' },
    ]);
    expect(of('vm.reclaimed', ORG.tenantB)).toEqual([
      { vmId: 'vm-spot-b', nodeId: 'n1', unitIds: ['gpu-2'], orgId: ORG.tenantB, terminatedAt: at, reason: 'back' },
    ]);
    // The owner sees every VM on its node but not whose it is; the operator sees all.
    expect(of('vm.reclaimed', ORG.owner).map((d) => [d.vmId, 'orgId' in d, d.reservationId])).toEqual([
      ['vm-spot-a', false, 'r1'],
      ['vm-spot-b', false, 'r1'],
    ]);
    expect(of('vm.reclaimed', ORG.platform).map((d) => [d.vmId, d.orgId, d.reservationId])).toEqual([
      ['vm-spot-a', ORG.tenantA, 'r1'],
      ['vm-spot-b', ORG.tenantB, 'r1'],
    ]);
    // The managing org learns of the evictions from reservation.reclaimed alone.
    expect(of('vm.reclaimed', ORG.managing)).toEqual([]);
  });

  it('a change that fails writes no event', async () => {
    const before = await db().select().from(events);
    await failure(reclaim({ ctx: ctxFor(db(), ORG.audience, BASE), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] } }));
    expect(await db().select().from(events)).toEqual(before);
  });
});

describe('the feed (docs/product.md §5.7)', () => {
  it("answers only the acting org's events, in order, with a cursor to read on", async () => {
    await reclaim({ ctx: ctxFor(db(), ORG.managing, BASE), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] } });
    const first = await feed(ORG.tenantA);
    expect(first.items.map((e) => [e.type, e.data.vmId])).toEqual([['vm.reclaimed', 'vm-spot-a']]);
    expect(first.items[0]!.id).toMatch(/^ev_/);
    const again = await feed(ORG.tenantA, { after: first.nextCursor });
    expect(again.items).toEqual([]);
    // An empty page hands back a cursor at the same place.
    await reclaim({ ctx: ctxFor(db(), ORG.managing, BASE), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-2'] } });
    const next = await feed(ORG.tenantB, {});
    expect(next.items.map((e) => e.data.vmId)).toEqual(['vm-spot-b']);
    expect((await feed(ORG.tenantA, { after: again.nextCursor })).items).toEqual([]);
    expect((await feed(ORG.other)).items).toEqual([]);
  });

  it('filters by type and pages by limit', async () => {
    await reclaim({ ctx: ctxFor(db(), ORG.managing, BASE), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2'] } });
    const page1 = await feed(ORG.owner, { limit: 2 });
    expect(page1.items.map((e) => e.type)).toEqual(['reservation.reclaimed', 'vm.reclaimed']);
    const page2 = await feed(ORG.owner, { limit: 2, after: page1.nextCursor });
    expect(page2.items.map((e) => e.type)).toEqual(['vm.reclaimed']);
    const vmsOnly = await feed(ORG.owner, { types: ['vm.reclaimed'] });
    expect(vmsOnly.items.map((e) => e.data.vmId)).toEqual(['vm-spot-a', 'vm-spot-b']);
  });

  it('never skips an event that commits late: N+1 committed before N, both arrive, in order', async () => {
    // Two connections of their own, so the two transactions really overlap.
    const { db: other, client } = createDb(scene().url, { max: 2 });
    try {
      let releaseN!: () => void;
      const nHeld = new Promise<void>((r) => (releaseN = r));
      let nWritten!: () => void;
      const nStarted = new Promise<void>((r) => (nWritten = r));
      // N: writes first (its xid is the older), commits last.
      const n = other.transaction(async (tx) => {
        await writeEvents(tx, [fact(1)]);
        nWritten();
        await nHeld;
      });
      await nStarted;
      // N+1: writes and commits while N is still open.
      await other.transaction((tx) => writeEvents(tx, [fact(2)]));
      expect((await db().select().from(events).where(eq(events.orgId, ORG.owner))).map((r) => r.nodeId)).toEqual(['node-2']);
      // Committed, but behind N's horizon: not served yet, so no cursor can pass over N.
      const early = await feed(ORG.owner);
      expect(early.items).toEqual([]);
      releaseN();
      await n;
      const page = await feed(ORG.owner, { after: early.nextCursor });
      expect(page.items.map((e) => e.data.nodeId)).toEqual(['node-1', 'node-2']);
    } finally {
      await client.end();
    }
  });

  it('a long poll answers as soon as an event commits, and after `wait` when none does', async () => {
    const empty = await feed(ORG.owner);
    const started = Date.now();
    const none = await feed(ORG.owner, { after: empty.nextCursor, wait: 1 });
    expect(none.items).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const polling = feed(ORG.owner, { after: none.nextCursor, wait: 30 });
    await new Promise((r) => setTimeout(r, 200));
    await notifyAfterCommit(db(), () => db().transaction((tx) => writeEvents(tx, [fact(3)])));
    const got = await Promise.race([polling, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
    expect(got?.items.map((e) => e.data.nodeId)).toEqual(['node-3']);
  });

  it('the NOTIFY sent after the commit wakes the waiters of the orgs it names, and only those', async () => {
    await waitForEvents(ORG.owner, 1); // listening from here on
    let ownerWoke = false;
    let otherWoke = false;
    const owner = waitForEvents(ORG.owner, 20_000).then(() => (ownerWoke = true));
    void waitForEvents(ORG.other, 20_000).then(() => (otherWoke = true));
    await notifyAfterCommit(db(), () => db().transaction((tx) => writeEvents(tx, [fact(4)]))); // to the platform and org_owner
    await Promise.race([owner, new Promise((r) => setTimeout(r, 10_000))]);
    expect(ownerWoke).toBe(true);
    expect(otherWoke).toBe(false);
    await db().execute(sql`select pg_notify('events', '*')`);
    await expect.poll(() => otherWoke, { timeout: 10_000 }).toBe(true);
  });

  it("a verb's commit wakes its recipients' waiters (the NOTIFY comes after the commit, from inTransaction)", async () => {
    await waitForEvents(ORG.managing, 1); // listening from here on
    let woke = false;
    const waiting = waitForEvents(ORG.managing, 20_000).then(() => (woke = true));
    await reclaim({ ctx: ctxFor(db(), ORG.managing, BASE), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } });
    await Promise.race([waiting, new Promise((r) => setTimeout(r, 10_000))]);
    expect(woke).toBe(true);
  });

  it('refuses a cursor it did not hand out (400) and one older than the retention (410)', async () => {
    expect(await failure(feed(ORG.owner, { after: 'nope' }))).toMatchObject({ code: 'invalid_request' });
    const { nextCursor } = await feed(ORG.owner);
    const p = JSON.parse(Buffer.from(nextCursor, 'base64url').toString('utf8')) as { x: number; s: number; t: number };
    const old = Buffer.from(JSON.stringify({ ...p, t: p.t - 31 * 86_400_000 }), 'utf8').toString('base64url');
    expect(await failure(feed(ORG.owner, { after: old }))).toMatchObject({ code: 'cursor_expired' });
    const recent = Buffer.from(JSON.stringify({ ...p, t: p.t - 29 * 86_400_000 }), 'utf8').toString('base64url');
    expect((await feed(ORG.owner, { after: recent })).items).toEqual([]);
  });
});
