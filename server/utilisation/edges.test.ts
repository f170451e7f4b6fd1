/**
 * Utilisation's edges (docs/product.md §5.8 "Utilisation"): an eviction at exactly the window's
 * start counts in its first bucket; a VM spanning two holders' units is the eviction of the holder
 * that reclaimed it only.
 */
import { gpuUnits, insertNode, insertOrg } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { createReservation } from '../reservations/create';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { placeVm } from '../vms/place';
import { getReservationUtilisation } from './reservation';

const U = { owner: 'org_u_owner', manager: 'org_u_manager', audience: 'org_u_audience' } as const;
const scene = useFreshScene();
const db = () => scene().db;
const as = (orgId: string, h: number) => ctxFor(db(), orgId, hours(h));

async function node() {
  for (const id of Object.values(U)) await insertOrg(db(), { id });
  await insertNode(db(), { id: 'nu', ownerOrgId: U.owner, units: gpuUnits(8), createdAt: hours(-1) });
}

describe('utilisation edges', () => {
  it('an eviction at exactly the window’s start counts in the first bucket [from, to)', async () => {
    await node();
    await createReservation({
      ctx: as(U.owner, 0),
      input: { nodeId: 'nu', id: 'ru', reservedUnitIds: ['gpu-0'], allowedOrgIds: [U.audience], managingOrgIds: [U.manager], endsAt: hours(10) },
    });
    await release({ ctx: as(U.manager, 1), input: { nodeId: 'nu', reservationId: 'ru', unitIds: ['gpu-0'] } });
    await placeVm({ ctx: as(ORG.tenantA, 2), input: { nodeId: 'nu', unitIds: ['gpu-0'], tier: 'spot' } });
    await reclaim({ ctx: as(U.manager, 6), input: { nodeId: 'nu', reservationId: 'ru', unitIds: ['gpu-0'] } });
    // now = 6 h + 7 d: the window is [6 h, 6 h + 7 d), its first bucket [6 h, 12 h) holds the eviction at 6 h.
    const u = await getReservationUtilisation({ ctx: as(U.owner, 6 + 168), input: { nodeId: 'nu', reservationId: 'ru', window: '7d' } });
    expect(u.series[0]!.from).toBe(hours(6).toISOString());
    expect(u.series[0]!.evictions).toBe(1);
    expect(u.totals.evictions).toBe(1);
  });
});

describe('utilisation: a spot VM spanning two reservations', () => {
  it('a reclaim by r-a evicts the VM; r-b, which reclaimed nothing, counts no eviction', async () => {
    await node();
    for (const [id, unit] of [
      ['ra', 'gpu-0'],
      ['rb', 'gpu-1'],
    ] as const) {
      await createReservation({
        ctx: as(U.owner, 0),
        input: { nodeId: 'nu', id, reservedUnitIds: [unit], allowedOrgIds: [U.audience], managingOrgIds: [U.manager], endsAt: hours(10) },
      });
      await release({ ctx: as(U.manager, 1), input: { nodeId: 'nu', reservationId: id, unitIds: [unit] } });
    }
    await placeVm({ ctx: as(ORG.tenantA, 2), input: { nodeId: 'nu', unitIds: ['gpu-0', 'gpu-1'], tier: 'spot' } });
    const r = await reclaim({ ctx: as(U.manager, 3), input: { nodeId: 'nu', reservationId: 'ra', unitIds: ['gpu-0'] } });
    expect(r.terminated).toHaveLength(1);
    const ua = await getReservationUtilisation({ ctx: as(U.owner, 4), input: { nodeId: 'nu', reservationId: 'ra', window: '7d' } });
    const ub = await getReservationUtilisation({ ctx: as(U.owner, 4), input: { nodeId: 'nu', reservationId: 'rb', window: '7d' } });
    expect(ua.totals.evictions).toBe(1);
    expect(ub.totals.evictions).toBe(0);
  });
});
