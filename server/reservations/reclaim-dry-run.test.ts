/**
 * The dry run reads one snapshot — a single SELECT — without locks (docs/product.md §5.1 step 6; issue 10):
 * what it reports must be exactly what the real reclaim then does, for every shape of fixture.
 */
import * as reclaimRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim/route';
import * as schema from '@/db/schema';
import { insertNode, insertReservation, insertVm } from '@/db/factories';
import { idempotencyRecords, vms } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { reclaim } from './reclaim';
import type { ReclaimInput } from './schemas';

const scene = useFreshScene();
const db = () => scene().db;

async function outcome(p: Promise<Awaited<ReturnType<typeof reclaim>>>) {
  try {
    return await p;
  } catch (e) {
    if (e instanceof DomainError) return { error: e.code };
    throw e;
  }
}

/** Extra reservations beside the scene's r1 (server/testing/scene.ts) on node n2. */
async function addShapes() {
  await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, topologyGen: 2, createdAt: hours(-72) });
  const base = { nodeId: 'n2', allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], createdAt: hours(-72) };
  // needs-review and holding its units now; a spot VM spans a released and an unreleased unit.
  await insertReservation(db(), {
    ...base,
    id: 'r-review',
    unitIds: ['gpu-0', 'gpu-1', 'gpu-2'],
    releasedUnitIds: ['gpu-0'],
    startsAt: hours(-24),
    endsAt: hours(2),
    topologyGen: 1,
  });
  await insertVm(db(), { id: 'vm-n2-wide', nodeId: 'n2', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-0', 'gpu-1'], startedAt: hours(-1) });
  // pending: its units run VMs on someone else's capacity now, which its reclaim leaves alone.
  await insertReservation(db(), {
    ...base,
    id: 'r-pending',
    unitIds: ['gpu-4', 'gpu-5'],
    releasedUnitIds: ['gpu-4', 'gpu-5'],
    startsAt: hours(4),
    topologyGen: 2,
  });
  await insertVm(db(), { id: 'vm-n2-free', nodeId: 'n2', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-4'], startedAt: hours(-1) });
  // expired: not reclaimable, dry run or not.
  await insertReservation(db(), {
    ...base,
    id: 'r-expired',
    unitIds: ['gpu-6'],
    releasedUnitIds: ['gpu-6'],
    startsAt: hours(-48),
    endsAt: hours(-24),
    topologyGen: 2,
  });
}

const shapes: { name: string; input: Omit<ReclaimInput, 'dryRun'> }[] = [
  {
    name: 'every released unit: two spot VMs (one multi-unit), one idle unit',
    input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'] },
  },
  { name: 'one unit of a multi-unit spot VM', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-1'] } },
  { name: 'units with a reserved VM only (skipped, nothing leaves the market)', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-4', 'gpu-5'] } },
  { name: 'every reserved unit', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'] } },
  { name: 'the idle released unit', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } },
  { name: 'a matching expectedTerminate', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-2'], expectedTerminate: ['vm-spot-b'] } },
  { name: 'a stale expectedTerminate', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-2'], expectedTerminate: [] } },
  { name: 'a stray unit', input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3', 'gpu-7'] } },
  { name: 'a needs-review reservation holding its units', input: { nodeId: 'n2', reservationId: 'r-review', unitIds: ['gpu-0', 'gpu-1', 'gpu-2'] } },
  { name: 'a pending reservation', input: { nodeId: 'n2', reservationId: 'r-pending', unitIds: ['gpu-4', 'gpu-5'] } },
  { name: 'an expired reservation', input: { nodeId: 'n2', reservationId: 'r-expired', unitIds: ['gpu-6'] } },
];

describe('the dry run reports exactly what the real reclaim then does', () => {
  for (const shape of shapes) {
    it(shape.name, async () => {
      await addShapes();
      const ctx = ctxFor(db(), ORG.managing, T0);
      const runningBefore = new Set((await db().select({ id: vms.id }).from(vms).where(eq(vms.status, 'running'))).map((v) => v.id));
      const dry = await outcome(reclaim({ ctx, input: { ...shape.input, dryRun: true } }));
      const real = await outcome(reclaim({ ctx, input: shape.input }));
      if ('error' in dry || 'error' in real) {
        expect(real).toEqual(dry);
        return;
      }
      expect({ terminated: real.terminated, skipped: real.skipped }).toEqual({ terminated: dry.wouldTerminate, skipped: dry.wouldSkip });
      // …and what the database now holds agrees: exactly those VMs ended.
      const runningAfter = new Set((await db().select({ id: vms.id }).from(vms).where(eq(vms.status, 'running'))).map((v) => v.id));
      expect([...runningBefore].filter((id) => !runningAfter.has(id)).sort()).toEqual(dry.wouldTerminate);
      // The units the dry run left released are those the real run did not take back.
      const named = new Set(shape.input.unitIds);
      expect(real.releasedUnitIds).toEqual(dry.releasedUnitIds.filter((u) => !named.has(u)));
    });
  }
});

describe('the reservation read brings only its own units', () => {
  it("a reservation id also used on another node does not lend it that one's units", async () => {
    // Regression: drizzle prints a one-table select's field columns unqualified, so the unit
    // subquery once compared reservation_units' node_id with itself and merged both nodes' r1.
    await insertNode(db(), { id: 'n9', ownerOrgId: ORG.owner, createdAt: hours(-72) });
    await insertReservation(db(), {
      id: 'r1',
      nodeId: 'n9',
      unitIds: ['gpu-0', 'gpu-6', 'gpu-7'],
      releasedUnitIds: ['gpu-7'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      startsAt: hours(-1),
    });
    const ctx = ctxFor(db(), ORG.managing, T0);
    const dry = await reclaim({ ctx, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'], dryRun: true } });
    expect(dry.reservedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5']);
    expect(dry.releasedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    await expect(reclaim({ ctx, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-7'] } })).rejects.toMatchObject({ code: 'unit_not_in_reservation' });
    const other = await reclaim({ ctx, input: { nodeId: 'n9', reservationId: 'r1', unitIds: ['gpu-7'] } });
    expect({ reserved: other.reservedUnitIds, released: other.releasedUnitIds }).toEqual({ reserved: ['gpu-0', 'gpu-6', 'gpu-7'], released: [] });
  });
});

describe('the dry run takes no locks and no transaction id', () => {
  it('is one SELECT outside any transaction, with no FOR SHARE or FOR UPDATE', async () => {
    const sent: string[] = [];
    const client = postgres(scene().url, { max: 1, onnotice: () => {}, debug: (_conn, query) => sent.push(query), connection: { TimeZone: 'UTC' } });
    try {
      const logged = drizzle(client, { schema });
      const res = await reclaim({
        ctx: ctxFor(logged, ORG.managing, T0),
        input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2', 'gpu-4'], dryRun: true },
      });
      expect(res).toMatchObject({ wouldTerminate: ['vm-spot-a', 'vm-spot-b'], wouldSkip: ['vm-res'] });
      // (postgres.js reads the array types once per connection first.)
      // One statement is one snapshot: no BEGIN, no COMMIT, nothing else sent.
      const statements = sent.filter((q) => !q.includes('pg_catalog.pg_type'));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^select /);
      expect(statements.filter((q) => /\bfor (share|update|no key update|key share)\b/i.test(q))).toEqual([]);
      // The real run, by contrast, locks the node, the reservation and the VMs.
      sent.length = 0;
      await reclaim({ ctx: ctxFor(logged, ORG.managing, T0), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2', 'gpu-4'] } });
      // (The reservation and its VMs in one statement under the node lock: three locking clauses in two statements.)
      expect(sent.flatMap((q) => q.match(/\bfor no key update\b/gi) ?? [])).toHaveLength(3);
    } finally {
      await client.end();
    }
  });
});

describe('a dry run under an Idempotency-Key (REST)', () => {
  // REST reads PostgreSQL's clock: the scene is built around the real now.
  const live = useFreshScene(() => new Date());
  it('stores its response after the snapshot and replays it', async () => {
    const db = () => live().db;
    const keys = await issueKeys(db(), [ORG.managing]);
    const call = () =>
      callRoute(reclaimRoute.POST, {
        method: 'POST',
        path: '/v1/nodes/n1/reservations/r1/reclaim',
        params: { nodeId: 'n1', id: 'r1' },
        key: keys[ORG.managing],
        body: { unitIds: ['gpu-0'], dryRun: true },
        headers: { 'idempotency-key': 'dry-1' },
      });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ wouldTerminate: ['vm-spot-a'], wouldSkip: [] });
    expect(await db().select({ status: idempotencyRecords.status }).from(idempotencyRecords)).toEqual([{ status: 200 }]);
    const again = await call();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  });
});
