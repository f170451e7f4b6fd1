/**
 * Found by review, POST …/reclaim-plan (docs/product.md §5.5): a released unit the node no
 * longer has (removed by a topology change; the reservation is needs-review, still reclaimable).
 */
import { gpuUnits, insertNode, insertReservation, insertVm } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { changeTopology } from '../nodes/topology';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { reclaim } from './reclaim';
import { planReclaim } from './reclaim-plan';

const scene = useFreshScene();
const db = () => scene().db;
const r1 = { nodeId: 'n1', reservationId: 'r1' };

describe('reclaim plan after a topology change removed a released unit', () => {
  it('never plans to "get a GPU back" from a unit the node no longer has', async () => {
    // Scene: r1 holds gpu-0…gpu-5, released gpu-0…gpu-3; gpu-3 is released and idle.
    // The operator removes gpu-3 from the node (no VM on it, so allowed): r1 becomes needs-review.
    const units = gpuUnits(8).filter((u) => u.id !== 'gpu-3');
    await changeTopology({ ctx: ctxFor(db(), ORG.platform), input: { nodeId: 'n1', units } as never });
    const plan = await planReclaim({ ctx: ctxFor(db(), ORG.managing), input: { ...r1, count: 1 } });
    console.log('plan for 1 GPU after gpu-3 was removed:', JSON.stringify(plan));
    // The plan's GPU must be one the node has: gpu-3 is gone, so reclaiming it gives nothing back.
    expect(plan.unitIds).not.toContain('gpu-3');
    const done = await reclaim({ ctx: ctxFor(db(), ORG.managing), input: { ...r1, unitIds: plan.unitIds, expectedTerminate: plan.wouldTerminate } });
    console.log('reclaim of the plan:', JSON.stringify(done));
  });

  it('does not count a removed unit among the available ones (not_enough_units says 3, what the node has)', async () => {
    const units = gpuUnits(8).filter((u) => u.id !== 'gpu-3');
    await changeTopology({ ctx: ctxFor(db(), ORG.platform), input: { nodeId: 'n1', units } as never });
    const e = await planReclaim({ ctx: ctxFor(db(), ORG.managing), input: { ...r1, count: 4 } }).then(
      (p) => p,
      (x: unknown) => x,
    );
    console.log('plan for 4 GPUs after gpu-3 was removed:', JSON.stringify(e));
    // Only gpu-0, gpu-1, gpu-2 exist and are released: 4 GPUs cannot be had.
    expect(e).toBeInstanceOf(Error);
  });
});

describe('reclaim plan of a reservation that does not hold its units now', () => {
  it('plans no terminations and says of a unit a spot VM runs on that it runs on another holder\'s capacity, never "idle"', async () => {
    await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, createdAt: hours(-72) });
    await insertReservation(db(), {
      id: 'r-pending',
      nodeId: 'n2',
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      unitIds: ['gpu-4', 'gpu-5'],
      releasedUnitIds: ['gpu-4', 'gpu-5'],
      startsAt: hours(4),
      createdAt: hours(-72),
    });
    await insertVm(db(), { id: 'vm-n2-free', nodeId: 'n2', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-4'], startedAt: hours(-1) });
    const plan = await planReclaim({ ctx: ctxFor(db(), ORG.managing), input: { nodeId: 'n2', reservationId: 'r-pending', count: 1 } });
    const dry = await reclaim({ ctx: ctxFor(db(), ORG.managing), input: { nodeId: 'n2', reservationId: 'r-pending', unitIds: plan.unitIds, dryRun: true } });
    expect(plan.wouldTerminate).toEqual(dry.wouldTerminate);
    expect(plan.wouldSkip).toEqual(dry.wouldSkip);
    expect(plan.unitIds).toEqual(['gpu-4']);
    expect(plan.reasons.find((r) => r.id === 'gpu-4')).toMatchObject({
      code: 'not-held',
      text: expect.stringContaining("runs vm-n2-free on another holder's capacity"),
    });
  });
});
