/**
 * `expectedTopologyGen` on re-affirm and `PUT …/topology` (docs/product.md §5.4; issue 18: both
 * raced the preview they were confirmed from): when the node is no longer at the generation the
 * caller reviewed, 409 `topology_changed` with the node's current `topologyGen`, and nothing
 * changes. A 409 state check: after 404 and 403, before the other 409s of the verb.
 */
import { gpuUnits } from '@/db/factories';
import { auditEvents, nodes, notifications, reservations } from '@/db/schema';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as topologyRoute from '@/app/v1/nodes/[nodeId]/topology/route';
import * as reaffirmRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/reaffirm/route';
import type { DomainError } from '../errors';
import { cancelReservation } from '../reservations/cancel';
import { reaffirm } from '../reservations/reaffirm';
import { updateReservation } from '../reservations/update';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, hours, ORG } from '../testing/scene';
import { createCaller } from '../trpc/root';
import { changeTopology } from './topology';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );
const withMemory = (gib: number) => gpuUnits(8).map((u) => (u.id === 'gpu-1' ? { ...u, memoryGiB: gib } : u));

describe('expectedTopologyGen', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const op = (at = hours(1)) => ctxFor(db(), ORG.platform, at);
  const r1 = { nodeId: 'n1', reservationId: 'r1' };
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });
  /** What a refused call must leave as it was. */
  const state = async () =>
    JSON.stringify([await db().select().from(nodes), await db().select().from(reservations), await db().select({ n: count() }).from(auditEvents)]);

  it('PUT topology: the generation edited goes through; another is 409 with the current one, changing nothing', async () => {
    const first = await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(94), expectedTopologyGen: 1 } });
    expect(first.topologyGen).toBe(2);
    // A second operator's dialog still shows generation 1.
    const before = await state();
    const stale = await failure(changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(96), expectedTopologyGen: 1 } }));
    expect(stale?.code).toBe('topology_changed');
    expect(stale?.httpStatus).toBe(409);
    expect(stale?.extras).toEqual({ topologyGen: 2 });
    expect(stale?.detail).toMatch(/generation 2, not 1/);
    expect(await state()).toBe(before);
    // The same list again is a no-op — but only at the generation it was reviewed at.
    expect((await failure(changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(94), expectedTopologyGen: 1 } })))?.code).toBe(
      'topology_changed',
    );
    expect((await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(94), expectedTopologyGen: 2 } })).topologyGen).toBe(2);
    // Without it, as before: the change applies to whatever the node is at.
    expect((await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(96) } })).topologyGen).toBe(3);
    // The operator's bell: r1 went into needs-review once (generation 1 → 2), in the change's
    // transaction; neither the refused calls, the no-op nor the change at 3 (r1 was in review
    // already) told it again.
    const bell = await db().select().from(notifications).where(eq(notifications.kind, 'reservation.needs_review'));
    expect(bell.map((n) => [n.orgId, n.details])).toEqual([[ORG.platform, { nodeId: 'n1', reservationId: 'r1', fromGen: 1, topologyGen: 2 }]]);
  });

  it('PUT topology: 404 and 403 come first; topology_changed before unit_occupied', async () => {
    expect((await failure(changeTopology({ ctx: op(), input: { nodeId: 'n-nope', units: gpuUnits(8), expectedTopologyGen: 9 } })))?.code).toBe('not_found');
    expect(
      (await failure(changeTopology({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', units: withMemory(94), expectedTopologyGen: 9 } })))?.code,
    ).toBe('forbidden');
    // Removing gpu-7 (vm-od runs there) at a stale generation: the stale view is what is wrong.
    const withoutGpu7 = gpuUnits(8).filter((u) => u.id !== 'gpu-7');
    expect((await failure(changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withoutGpu7, expectedTopologyGen: 9 } })))?.code).toBe('topology_changed');
    expect((await failure(changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withoutGpu7, expectedTopologyGen: 1 } })))?.code).toBe('unit_occupied');
  });

  it('re-affirm: approves only the diff the operator saw; a newer change is 409 and leaves it in review', async () => {
    await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(94) } });
    // The operator reviews r1's diff (generation 1 → 2); meanwhile the topology changes again.
    await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: withMemory(96) } });
    const before = await state();
    const stale = await failure(reaffirm({ ctx: op(), input: { ...r1, reason: 'checked', expectedTopologyGen: 2 } }));
    expect(stale?.code).toBe('topology_changed');
    expect(stale?.extras).toEqual({ topologyGen: 3 });
    expect(await state()).toBe(before);
    const back = await reaffirm({ ctx: op(), input: { ...r1, reason: 'checked again', expectedTopologyGen: 3 } });
    expect(back).toMatchObject({ status: 'active', topologyGen: 3 });
    // Already current: answered unchanged, at the right generation; another is still a 409.
    expect((await reaffirm({ ctx: op(), input: { ...r1, expectedTopologyGen: 3 } })).topologyGen).toBe(3);
    expect((await failure(reaffirm({ ctx: op(), input: { ...r1, expectedTopologyGen: 2 } })))?.code).toBe('topology_changed');
  });

  it('re-affirm: 404, 403 and the reservation’s own status come first; topology_changed before unit_missing', async () => {
    await changeTopology({ ctx: op(), input: { nodeId: 'n1', units: gpuUnits(8).filter((u) => u.id !== 'gpu-5') } });
    expect((await failure(reaffirm({ ctx: op(), input: { nodeId: 'n1', reservationId: 'r-nope', expectedTopologyGen: 9 } })))?.code).toBe('not_found');
    expect((await failure(reaffirm({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { ...r1, expectedTopologyGen: 9 } })))?.code).toBe('forbidden');
    expect((await failure(reaffirm({ ctx: op(), input: { ...r1, expectedTopologyGen: 9 } })))?.code).toBe('topology_changed');
    expect((await failure(reaffirm({ ctx: op(), input: { ...r1, expectedTopologyGen: 2 } })))?.code).toBe('unit_missing');
    await updateReservation({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { ...r1, reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'] } });
    await cancelReservation({ ctx: op(hours(2)), input: r1 });
    expect((await failure(reaffirm({ ctx: op(hours(2)), input: { ...r1, expectedTopologyGen: 9 } })))?.code).toBe('reservation_not_active');
  });
});

describe('expectedTopologyGen over REST and tRPC', () => {
  // Transports read PostgreSQL's clock: the scene is built around now.
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });

  it('is an optional integer ≥ 1 (else 400 naming it); the 409 carries topologyGen', async () => {
    const keys = await issueKeys(db(), [ORG.platform]);
    const put = (body: unknown) =>
      callRoute(topologyRoute.PUT, { method: 'PUT', path: '/v1/nodes/n1/topology', params: { nodeId: 'n1' }, key: keys[ORG.platform], body });
    for (const bad of [0, 1.5, '1', null, -1, 2 ** 31]) {
      const res = await put({ units: withMemory(94), expectedTopologyGen: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(
        (res.json.errors as { path: string }[]).map((e) => e.path),
        String(bad),
      ).toEqual(['body.expectedTopologyGen']);
    }
    expect((await put({ units: withMemory(94), expectedTopologyGen: 1 })).status).toBe(200);
    const stale = await put({ units: withMemory(96), expectedTopologyGen: 1 });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('content-type')).toBe('application/problem+json');
    expect(stale.json).toMatchObject({ code: 'topology_changed', status: 409, title: 'Topology changed', topologyGen: 2 });

    const post = (body: unknown) =>
      callRoute(reaffirmRoute.POST, {
        method: 'POST',
        path: '/v1/nodes/n1/reservations/r1/reaffirm',
        params: { nodeId: 'n1', id: 'r1' },
        key: keys[ORG.platform],
        body,
      });
    expect((await post({ reason: 'x', expectedTopologyGen: 1 })).json).toMatchObject({ code: 'topology_changed', topologyGen: 2 });
    expect((await post({ reason: 'x', expectedTopologyGen: 2 })).json).toMatchObject({ status: 'active', topologyGen: 2 });

    const caller = createCaller({ db: db(), principal: { orgId: ORG.platform, actor: { kind: 'user', userId: 'u' }, via: 'console' } });
    const viaTrpc = await caller.nodes.changeTopology({ nodeId: 'n1', units: gpuUnits(8), expectedTopologyGen: 1 }).then(
      () => null,
      (e: { code?: string; cause?: DomainError }) => e,
    );
    expect(viaTrpc?.code).toBe('CONFLICT');
    expect(viaTrpc?.cause?.toProblem()).toMatchObject({ code: 'topology_changed', topologyGen: 2 });
    expect((await db().select({ gen: nodes.topologyGen }).from(nodes).where(eq(nodes.id, 'n1')))[0]!.gen).toBe(2);
  });
});
