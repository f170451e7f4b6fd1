/**
 * Utilisation (docs/product.md §5.8 Utilisation): exact GPU-hour figures for a known history
 * written by the verbs, visibility per persona, the roll-up per relation, and the window's
 * validation over REST and tRPC.
 */
import * as utilisationRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/utilisation/route';
import * as rollupRoute from '@/app/v1/utilisation/route';
import { gpuUnits, insertNode, insertOrg } from '@/db/factories';
import { TRPCError } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createReservation } from '../reservations/create';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { createCaller } from '../trpc/root';
import { placeVm } from '../vms/place';
import { terminateVm } from '../vms/terminate';
import { utilisationStatement } from './figures';
import { getReservationUtilisation } from './reservation';
import { getUtilisationRollup } from './rollup';

const U = { owner: 'org_u_owner', manager: 'org_u_manager', audience: 'org_u_audience' } as const;
const scene = useFreshScene();
const db = () => scene().db;
const as = (orgId: string, h: number) => ctxFor(db(), orgId, hours(h));

/**
 * The history: at 0 the owner reserves gpu-0…3 of node `nu` for 10 h; at 1 the audience runs a
 * reserved-tier VM on gpu-0 until 5; at 2 the manager releases gpu-2 and gpu-3; at 3 a spot VM
 * lands on gpu-2; at 6 the manager reclaims gpu-2 (an eviction). gpu-3 stays released and idle.
 */
async function buildHistory() {
  for (const id of Object.values(U)) await insertOrg(db(), { id });
  await insertNode(db(), { id: 'nu', ownerOrgId: U.owner, units: gpuUnits(8), createdAt: hours(-1) });
  await createReservation({
    ctx: as(U.owner, 0),
    input: {
      nodeId: 'nu',
      id: 'ru',
      reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
      allowedOrgIds: [U.audience],
      managingOrgIds: [U.manager],
      endsAt: hours(10),
    },
  });
  const own = await placeVm({ ctx: as(U.audience, 1), input: { nodeId: 'nu', unitIds: ['gpu-0'], tier: 'reserved', reservationId: 'ru' } });
  await release({ ctx: as(U.manager, 2), input: { nodeId: 'nu', reservationId: 'ru', unitIds: ['gpu-2', 'gpu-3'] } });
  const spot = await placeVm({ ctx: as(ORG.tenantA, 3), input: { nodeId: 'nu', unitIds: ['gpu-2'], tier: 'spot' } });
  await terminateVm({ ctx: as(U.audience, 5), input: { vmId: own.id } });
  const reclaimed = await reclaim({ ctx: as(U.manager, 6), input: { nodeId: 'nu', reservationId: 'ru', unitIds: ['gpu-2'] } });
  expect(reclaimed.terminated).toEqual([spot.id]);
}

const totals = {
  heldGpuHours: 40,
  idleGpuHours: 33,
  releasedGpuHours: 12,
  idleReleasedGpuHours: 9,
  spotGpuHours: 3,
  reservedTierGpuHours: 4,
  evictions: 1,
};
const zero = { heldGpuHours: 0, idleGpuHours: 0, releasedGpuHours: 0, idleReleasedGpuHours: 0, spotGpuHours: 0, reservedTierGpuHours: 0, evictions: 0 };
const input = { nodeId: 'nu', reservationId: 'ru' } as const;

describe('a reservation’s utilisation', () => {
  it('GPU-hours held, idle, released, used by spot and by the audience, and evictions, exactly; the 6-hour series sums to them', async () => {
    await buildHistory();
    const u = await getReservationUtilisation({ ctx: as(U.owner, 12), input: { ...input, window: '7d' } });
    expect(u).toMatchObject({ nodeId: 'nu', reservationId: 'ru', window: '7d', from: hours(12 - 168).toISOString(), to: hours(12).toISOString(), totals });
    expect(u.series).toHaveLength(28);
    expect(u.series[0]!.from).toBe(hours(12 - 168).toISOString());
    // The last two buckets, [0, 6) and [6, 12): the reclaim at 6 falls in the later one.
    expect(u.series.at(-2)).toEqual({
      from: T0.toISOString(),
      to: hours(6).toISOString(),
      heldGpuHours: 24,
      idleGpuHours: 17,
      releasedGpuHours: 8,
      idleReleasedGpuHours: 5,
      spotGpuHours: 3,
      reservedTierGpuHours: 4,
      evictions: 0,
    });
    expect(u.series.at(-1)).toEqual({
      from: hours(6).toISOString(),
      to: hours(12).toISOString(),
      ...zero,
      heldGpuHours: 16,
      idleGpuHours: 16,
      releasedGpuHours: 4,
      idleReleasedGpuHours: 4,
      evictions: 1,
    });
    for (const b of u.series.slice(0, -2)) expect(b).toMatchObject(zero);
  });

  it('30 days: 30 daily buckets, the same totals; a window that no longer meets the history is all zero', async () => {
    await buildHistory();
    const u = await getReservationUtilisation({ ctx: as(U.manager, 12), input: { ...input, window: '30d' } });
    expect(u.totals).toEqual(totals);
    expect(u.series).toHaveLength(30);
    expect(u.series.at(-1)).toMatchObject({ from: hours(-12).toISOString(), heldGpuHours: 40, evictions: 1 });
    // Mid-history: at 4 the VM on gpu-0 runs (1→4), the spot VM too (3→4), nothing evicted yet.
    expect((await getReservationUtilisation({ ctx: as(U.owner, 4), input: { ...input, window: '7d' } })).totals).toEqual({
      heldGpuHours: 16,
      idleGpuHours: 12,
      releasedGpuHours: 4,
      idleReleasedGpuHours: 3,
      spotGpuHours: 1,
      reservedTierGpuHours: 3,
      evictions: 0,
    });
    expect((await getReservationUtilisation({ ctx: as(U.owner, 12 + 24 * 8), input: { ...input, window: '7d' } })).totals).toEqual(zero);
  });

  it('shows to the operator, the owner, the managing org and the audience; the spot tenant and an unrelated org get 404', async () => {
    await buildHistory();
    for (const org of [ORG.platform, U.owner, U.manager, U.audience]) {
      expect((await getReservationUtilisation({ ctx: as(org, 12), input: { ...input, window: '7d' } })).totals, org).toEqual(totals);
    }
    for (const org of [ORG.tenantA, ORG.other, ORG.owner]) {
      const e = await failure(getReservationUtilisation({ ctx: as(org, 12), input: { ...input, window: '7d' } }));
      expect([e.code, e.httpStatus], org).toEqual(['not_found', 404]);
    }
    // Under another node, as the reservation GET: 404.
    const e = await failure(getReservationUtilisation({ ctx: as(U.owner, 12), input: { nodeId: 'n1', reservationId: 'ru', window: '7d' } }));
    expect(e.code).toBe('not_found');
  });
});

describe('the acting org’s roll-up', () => {
  it('each org sees only its own relations; the operator sees the fleet', async () => {
    await buildHistory();
    const rollup = (org: string, relation?: 'owner' | 'manager' | 'audience' | 'fleet') =>
      getUtilisationRollup({ ctx: as(org, 12), input: { window: '7d', ...(relation ? { relation } : {}) } });
    const owner = await rollup(U.owner);
    expect(owner.relations.map((r) => [r.relation, r.totals])).toEqual([['owner', totals]]);
    expect(owner.relations[0]!.series).toHaveLength(28);
    expect((await rollup(U.manager)).relations.map((r) => [r.relation, r.totals])).toEqual([['manager', totals]]);
    expect((await rollup(U.audience)).relations.map((r) => [r.relation, r.totals])).toEqual([['audience', totals]]);
    // The spot tenant stands to no reservation: its VM's time is the reservation's, not its own.
    expect((await rollup(ORG.tenantA)).relations).toEqual([]);
    expect((await rollup(ORG.other)).relations).toEqual([]);
    // A relation the org does not have, fleet included, is left out: a filtered read, never 403.
    expect((await rollup(U.manager, 'owner')).relations).toEqual([]);
    expect((await rollup(U.owner, 'fleet')).relations).toEqual([]);
    // The scene's own node n1 (org_owner's) is in the fleet too: more than this history.
    const fleet = await rollup(ORG.platform, 'fleet');
    expect(fleet.relations.map((r) => r.relation)).toEqual(['fleet']);
    expect(fleet.relations[0]!.totals.heldGpuHours).toBeGreaterThan(40);
    const sceneOwner = await rollup(ORG.owner, 'owner');
    expect(fleet.relations[0]!.totals.heldGpuHours).toBeCloseTo(40 + sceneOwner.relations[0]!.totals.heldGpuHours, 3);
  });
});

describe('the window', () => {
  it('over REST: 7d by default; anything but 7d and 30d is 400 problem+json naming query.window', async () => {
    await buildHistory();
    process.env.DATABASE_URL = scene().url;
    const keys = await issueKeys(db(), [U.owner]);
    const get = (query: string) =>
      callRoute(utilisationRoute.GET, { path: `/v1/nodes/nu/reservations/ru/utilisation${query}`, params: { nodeId: 'nu', id: 'ru' }, key: keys[U.owner] });
    const ok = await get('');
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ window: '7d', nodeId: 'nu', reservationId: 'ru' });
    for (const bad of ['?window=1d', '?window=', '?window=7d&window=30d', '?window=7D']) {
      const res = await get(bad);
      expect(res.status, bad).toBe(400);
      expect(res.headers.get('content-type'), bad).toMatch(/application\/problem\+json/);
    }
    const res = await get('?window=90d');
    expect((res.json.errors as { path: string }[])[0]!.path).toBe('query.window');
    const roll = await callRoute(rollupRoute.GET, { path: '/v1/utilisation?window=30d&relation=owner', key: keys[U.owner] });
    expect(roll.status).toBe(200);
    expect((roll.json.relations as { relation: string }[]).map((r) => r.relation)).toEqual(['owner']);
    expect((await callRoute(rollupRoute.GET, { path: '/v1/utilisation?relation=nodes', key: keys[U.owner] })).status).toBe(400);
  });

  it('over tRPC: BAD_REQUEST', async () => {
    const caller = createCaller({ db: db(), principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u_owner' }, via: 'console' } });
    const e = await caller.utilisation.rollup({ window: '1d' as '7d' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TRPCError);
    expect((e as TRPCError).code).toBe('BAD_REQUEST');
  });
});

describe('the plan', () => {
  it('reads one reservation’s rows through the index on (node_id, reservation_id, kind)', async () => {
    await buildHistory();
    const plan = await db().transaction(async (tx) => {
      // A test database is too small for the planner to prefer an index; the bench checks the
      // choice itself at 10,000 nodes (scripts/bench/utilisation.ts). Here: that it can.
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute<{ 'QUERY PLAN': string }>(
        sql`explain ${utilisationStatement(sql`i.node_id = ${'nu'} and i.reservation_id = ${'ru'}`, '7d', hours(12))}`,
      );
    });
    const text = [...plan].map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index (Only )?Scan using unit_intervals_(reservation|open)_idx on unit_intervals i/);
  });
});
