/**
 * Backdated reservations (issue 18; docs/product.md §5 create, §9 f, §9.1 o): a new reservation
 * may start at most 5 minutes before the request's clock (else 422 `start_in_past` naming
 * `body.startsAt`), and what a managing org sees through a reservation starts at its
 * `createdAt` — a VM that ended before the reservation existed is not shown through it, even
 * when the (slightly backdated) period covers the VM's run.
 */
import { insertReservation, insertVm } from '@/db/factories';
import { reservations } from '@/db/schema';
import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as reservationsRoute from '@/app/v1/nodes/[nodeId]/reservations/route';
import type { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, ORG, T0 } from '../testing/scene';
import { getVm } from '../vms/get';
import { listVms } from '../vms/list';
import { createReservation } from './create';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );
const min = (m: number, base: Date = T0) => new Date(base.getTime() + m * 60_000);

describe('a new reservation starts at most 5 minutes in the past', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const create = (startsAt: Date | undefined, extra: Record<string, unknown> = {}) =>
    createReservation({
      ctx: ctxFor(db(), ORG.owner, T0),
      input: { nodeId: 'n1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], ...(startsAt ? { startsAt } : {}), ...extra },
    });

  it('5 minutes back is accepted; a millisecond more is 422 start_in_past naming body.startsAt, creating nothing', async () => {
    const err = await failure(create(new Date(min(-5).getTime() - 1)));
    expect(err?.code).toBe('start_in_past');
    expect(err?.httpStatus).toBe(422);
    expect(err?.extras).toEqual({ errors: [{ path: 'body.startsAt', message: 'must be at most 5 minutes in the past' }] });
    expect(err?.detail).toMatch(/at most 5 minutes in the past/);
    expect((await db().select({ n: count() }).from(reservations))[0]!.n).toBe(1);
    expect(await create(min(-5))).toMatchObject({ startsAt: min(-5).toISOString(), createdAt: T0.toISOString(), status: 'active' });
  });

  it('a day back is refused too, whatever the end; now and the future are as before', async () => {
    expect((await failure(create(min(-24 * 60), { endsAt: min(60) })))?.code).toBe('start_in_past');
    expect((await failure(create(min(-24 * 60), { endsAt: min(-60) })))?.code).toBe('invalid_request');
    expect((await create(undefined)).startsAt).toBe(T0.toISOString());
    expect((await failure(create(min(60), { id: 'r-later' })))?.code).toBe('reservation_overlap');
  });

  it('over REST: 422 problem+json with errors[] naming body.startsAt', async () => {
    const keys = await issueKeys(db(), [ORG.owner]);
    const res = await callRoute(reservationsRoute.POST, {
      method: 'POST',
      path: '/v1/nodes/n1/reservations',
      params: { nodeId: 'n1' },
      key: keys[ORG.owner],
      body: { reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: new Date(Date.now() - 3_600_000).toISOString() },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json).toMatchObject({
      code: 'start_in_past',
      title: 'Start in the past',
      status: 422,
      errors: [{ path: 'body.startsAt' }],
      type: '/problems/start_in_past',
    });
  });
});

describe('visibility through a reservation starts at its createdAt (§9 f)', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });

  it('a VM that ended before the reservation was created is not the managing org’s to see; one running since is', async () => {
    // On gpu-6 (free in the scene): a VM that ran from T0 − 10 min to T0 − 1 min.
    await insertVm(db(), {
      id: 'vm-before',
      nodeId: 'n1',
      orgId: ORG.tenantA,
      tier: 'on-demand',
      unitIds: ['gpu-6'],
      startedAt: min(-10),
      terminatedAt: min(-1),
    });
    // At T0 the owner reserves gpu-6, managed by org_managing, backdated 4 minutes: allowed.
    const r = await createReservation({
      ctx: ctxFor(db(), ORG.owner, T0),
      input: {
        nodeId: 'n1',
        id: 'r-back',
        reservedUnitIds: ['gpu-6'],
        allowedOrgIds: [ORG.audience],
        managingOrgIds: [ORG.managing],
        startsAt: min(-4),
        endsAt: min(120),
      },
    });
    expect(r).toMatchObject({ startsAt: min(-4).toISOString(), createdAt: T0.toISOString() });
    // Then a spot VM lands on it and runs on.
    await insertVm(db(), { id: 'vm-after', nodeId: 'n1', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-6'], startedAt: min(1) });

    const managing = (now: Date) => ctxFor(db(), ORG.managing, now);
    const seen = async (now: Date) => (await listVms({ ctx: managing(now), input: { nodeId: 'n1' } })).items.map((v) => v.id);
    // The period [T0 − 4 min, …) meets vm-before's run [T0 − 10, T0 − 1), but it ended before r-back existed.
    expect(await seen(min(2))).not.toContain('vm-before');
    expect((await failure(getVm({ ctx: managing(min(2)), input: { vmId: 'vm-before' } })))?.code).toBe('not_found');
    expect(await seen(min(2))).toContain('vm-after');
    expect((await getVm({ ctx: managing(min(2)), input: { vmId: 'vm-after' } })).id).toBe('vm-after');
    // The owner sees both, as ever (its node).
    const owner = (await listVms({ ctx: ctxFor(db(), ORG.owner, min(2)), input: { nodeId: 'n1' } })).items.map((v) => v.id);
    expect(owner).toEqual(expect.arrayContaining(['vm-before', 'vm-after']));
  });

  it('a VM running when the reservation was created shows through it', async () => {
    await insertVm(db(), { id: 'vm-across', nodeId: 'n1', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-6'], startedAt: min(-10), terminatedAt: min(3) });
    await insertReservation(db(), {
      id: 'r-back',
      nodeId: 'n1',
      unitIds: ['gpu-6'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      startsAt: min(-4),
      createdAt: T0,
    });
    expect((await listVms({ ctx: ctxFor(db(), ORG.managing, min(10)), input: { nodeId: 'n1' } })).items.map((v) => v.id)).toContain('vm-across');
  });

  it('a reservation created before its period begins shows what runs from its start on, as before', async () => {
    await insertReservation(db(), {
      id: 'r-ahead',
      nodeId: 'n1',
      unitIds: ['gpu-6'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      startsAt: min(30),
      createdAt: T0,
    });
    await insertVm(db(), { id: 'vm-early', nodeId: 'n1', orgId: ORG.tenantA, tier: 'on-demand', unitIds: ['gpu-6'], startedAt: min(5), terminatedAt: min(20) });
    await insertVm(db(), { id: 'vm-late', nodeId: 'n1', orgId: ORG.tenantA, tier: 'on-demand', unitIds: ['gpu-6'], startedAt: min(25), terminatedAt: min(40) });
    const seen = (await listVms({ ctx: ctxFor(db(), ORG.managing, min(60)), input: { nodeId: 'n1' } })).items.map((v) => v.id);
    expect(seen).toContain('vm-late');
    expect(seen).not.toContain('vm-early');
  });
});
