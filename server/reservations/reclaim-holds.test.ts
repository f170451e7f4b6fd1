/**
 * A reservation acts only on units it holds now — not cancelled, and its period covers now —
 * whatever its status (holdsNow, server/reservation-view.ts). Found by an adversary: a
 * managing org of a reservation that starts later, made needs-review by a topology change,
 * could evict tenants from capacity it did not hold yet.
 */
import * as reclaimRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim/route';
import * as reservationsRoute from '@/app/v1/nodes/[nodeId]/reservations/route';
import * as topologyRoute from '@/app/v1/nodes/[nodeId]/topology/route';
import * as nodesRoute from '@/app/v1/nodes/route';
import * as vmsRoute from '@/app/v1/vms/route';
import { gpuUnits, insertNode, insertReservation, insertVm } from '@/db/factories';
import { auditEvents, nodes, notifications, vms } from '@/db/schema';
import { eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { createCaller } from '../trpc/root';
import { reclaim } from './reclaim';
import { updateReservation } from './update';
import { reservationStatus } from './view';

describe('reclaim acts only on units the reservation holds now, whatever its status', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  const periods = {
    before: { startsAt: hours(48), endsAt: hours(96) },
    within: { startsAt: hours(-1), endsAt: hours(24) },
    after: { startsAt: hours(-48), endsAt: hours(-1) },
  } as const;
  const variants = ['plain', 'cancelled', 'needs-review'] as const;

  for (const [when, period] of Object.entries(periods)) {
    for (const variant of variants) {
      it(`${variant} reservation, now ${when} its period`, async () => {
        // Node n2: gpu-0 runs a spot VM (tenant A), gpu-1 an on-demand VM (tenant B).
        await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, topologyGen: variant === 'needs-review' ? 2 : 1, createdAt: hours(-72) });
        await insertReservation(db(), {
          id: 'rx',
          nodeId: 'n2',
          unitIds: ['gpu-0', 'gpu-1'],
          releasedUnitIds: ['gpu-0'],
          allowedOrgIds: [ORG.audience],
          managingOrgIds: [ORG.managing],
          ...period,
          topologyGen: 1,
          ...(variant === 'cancelled' ? { cancelledAt: hours(-72) } : {}),
          createdAt: hours(-72),
        });
        await insertVm(db(), { id: 'vm-x-spot', nodeId: 'n2', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-0'], startedAt: hours(-2) });
        await insertVm(db(), { id: 'vm-x-od', nodeId: 'n2', orgId: ORG.tenantB, tier: 'on-demand', unitIds: ['gpu-1'], startedAt: hours(-2) });

        const status = reservationStatus(
          { cancelledAt: variant === 'cancelled' ? hours(-72) : null, ...period, topologyGen: 1 },
          variant === 'needs-review' ? 2 : 1,
          T0,
        );
        const input = { nodeId: 'n2', reservationId: 'rx', unitIds: ['gpu-0', 'gpu-1'] };
        const ctx = ctxFor(db(), ORG.managing, T0);

        if (status === 'cancelled' || status === 'expired') {
          const err = await reclaim({ ctx, input: { ...input, dryRun: true } }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(DomainError);
          expect((err as DomainError).code).toBe('reservation_not_reclaimable');
          expect(await db().select().from(vms).where(eq(vms.status, 'terminated'))).toHaveLength(0);
          return;
        }

        const preview = await reclaim({ ctx, input: { ...input, dryRun: true } });
        const done = await reclaim({ ctx, input });
        const ended = await db().select({ id: vms.id }).from(vms).where(eq(vms.status, 'terminated'));
        const notes = await db().select().from(notifications);
        if (when === 'within') {
          expect(preview).toMatchObject({ status, wouldTerminate: ['vm-x-spot'], wouldSkip: ['vm-x-od'] });
          expect(done).toMatchObject({ terminated: ['vm-x-spot'], skipped: ['vm-x-od'], releasedUnitIds: [] });
          expect(ended).toEqual([{ id: 'vm-x-spot' }]);
          expect(notes).toHaveLength(1);
        } else {
          // Before its period: it takes gpu-0 off its own future market, and evicts no one.
          expect(preview).toMatchObject({ status, wouldTerminate: [], wouldSkip: [] });
          expect(done).toMatchObject({ terminated: [], skipped: [], releasedUnitIds: [] });
          expect(ended).toEqual([]);
          expect(notes).toEqual([]);
          const [event] = await db().select().from(auditEvents);
          expect(event?.details).toEqual({ terminated: [], skipped: [] });
        }
      });
    }
  }

  it('a shrink before the period is not blocked by VMs that run on other capacity', async () => {
    await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, createdAt: hours(-72) });
    await insertReservation(db(), {
      id: 'rx',
      nodeId: 'n2',
      unitIds: ['gpu-0', 'gpu-1'],
      allowedOrgIds: [ORG.audience],
      ...periods.before,
      createdAt: hours(-72),
    });
    await insertVm(db(), { id: 'vm-aud-od', nodeId: 'n2', orgId: ORG.audience, tier: 'on-demand', unitIds: ['gpu-1'], startedAt: hours(-2) });
    const res = await updateReservation({ ctx: ctxFor(db(), ORG.owner, T0), input: { nodeId: 'n2', reservationId: 'rx', reservedUnitIds: ['gpu-0'] } });
    expect(res.reservedUnitIds).toEqual(['gpu-0']);
  });
});

describe('the reported reproduction, over REST and tRPC: a future reservation turned needs-review evicts no one', () => {
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;

  /** Register, reserve from in two days, place a spot and an on-demand VM now, change the topology. */
  async function stage(keys: Record<string, string>) {
    const post = (route: { POST: Parameters<typeof callRoute>[0] }, path: string, key: string, body: unknown, params: Record<string, string> = {}) =>
      callRoute(route.POST, { method: 'POST', path, key, body, params });
    const units = gpuUnits(4).map((u) => ({ id: u.id, model: u.model, memoryGiB: u.memoryGiB, nvlinkDomain: u.nvlinkDomain }));
    expect((await post(nodesRoute, '/v1/nodes', keys[ORG.platform]!, { id: 'n-future', name: 'Future', ownerOrgId: ORG.owner, units })).status).toBe(201);
    const startsAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const created = await post(
      reservationsRoute,
      '/v1/nodes/n-future/reservations',
      keys[ORG.owner]!,
      { id: 'r-future', reservedUnitIds: ['gpu-0', 'gpu-1'], allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], startsAt },
      { nodeId: 'n-future' },
    );
    expect(created.status).toBe(201);
    expect((await post(vmsRoute, '/v1/vms', keys[ORG.tenantA]!, { nodeId: 'n-future', unitIds: ['gpu-0'], tier: 'spot' })).status).toBe(201);
    expect((await post(vmsRoute, '/v1/vms', keys[ORG.tenantB]!, { nodeId: 'n-future', unitIds: ['gpu-1'], tier: 'on-demand' })).status).toBe(201);
    const changed = units.map((u, i) => (i === 3 ? { ...u, memoryGiB: 94 } : u));
    const topo = await callRoute(topologyRoute.PUT, {
      method: 'PUT',
      path: '/v1/nodes/n-future/topology',
      key: keys[ORG.platform],
      body: { units: changed },
      params: { nodeId: 'n-future' },
    });
    expect(topo.status).toBe(200);
  }

  async function expectNobodyEvicted() {
    expect(await db().select({ id: vms.id }).from(vms).where(eq(vms.status, 'terminated'))).toEqual([]);
    // No tenant is told of an eviction (the operator's needs-review notice of the topology change is no eviction).
    expect(await db().select().from(notifications).where(ne(notifications.kind, 'reservation.needs_review'))).toEqual([]);
  }

  it('REST: the dry run lists nobody and the reclaim terminates nobody', async () => {
    const keys = await issueKeys(db(), Object.values(ORG));
    await stage(keys);
    const path = '/v1/nodes/n-future/reservations/r-future/reclaim';
    const params = { nodeId: 'n-future', id: 'r-future' };
    const dry = await callRoute(reclaimRoute.POST, {
      method: 'POST',
      path,
      key: keys[ORG.managing],
      body: { unitIds: ['gpu-0', 'gpu-1'], dryRun: true },
      params,
    });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ status: 'needs-review', wouldTerminate: [], wouldSkip: [] });
    const real = await callRoute(reclaimRoute.POST, { method: 'POST', path, key: keys[ORG.managing], body: { unitIds: ['gpu-0', 'gpu-1'] }, params });
    expect(real.status).toBe(200);
    expect(real.json).toMatchObject({ terminated: [], skipped: [] });
    await expectNobodyEvicted();
  });

  it('tRPC: the dry run lists nobody and the reclaim terminates nobody', async () => {
    const keys = await issueKeys(db(), Object.values(ORG));
    await stage(keys);
    const caller = createCaller({ db: db(), principal: { orgId: ORG.managing, actor: { kind: 'user', userId: 'u_mgr' }, via: 'console' } });
    const input = { nodeId: 'n-future', reservationId: 'r-future', unitIds: ['gpu-0', 'gpu-1'] };
    expect(await caller.reservations.reclaim({ ...input, dryRun: true })).toMatchObject({ status: 'needs-review', wouldTerminate: [], wouldSkip: [] });
    expect(await caller.reservations.reclaim(input)).toMatchObject({ terminated: [], skipped: [] });
    await expectNobodyEvicted();
    const [node] = await db().select().from(nodes).where(eq(nodes.id, 'n-future'));
    expect(node?.topologyGen).toBe(2);
  });
});
