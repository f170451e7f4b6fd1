/**
 * The VM page's read (docs/product.md §6 "Pages agree"): the VM, Terminate… where the node page
 * offers it, and the reason its reclaim gave — to those who already read it (the VM's org in its
 * notification, others where they may see the reclaim's audit event, §2).
 */
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../errors';
import { reclaim } from '../reservations/reclaim';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { getVmDetail } from './detail';

describe('getVmDetail', () => {
  const scene = useFreshScene();
  const as = (orgId: string) => ctxFor(scene().db, orgId, hours(1));

  it('offers Terminate… on a running VM to its org and the operator only, as the node page does', async () => {
    for (const [orgId, offered] of [
      [ORG.tenantA, ['terminate']],
      [ORG.platform, ['terminate']],
      [ORG.owner, []],
      [ORG.managing, []],
    ] as const)
      expect((await getVmDetail({ ctx: as(orgId), input: { vmId: 'vm-spot-a' } })).actions, orgId).toEqual(offered);
  });

  it('gives a reclaimed VM’s reason to its org, the reclaimer, the node owner and the operator; no actions on it; 404 to the others', async () => {
    await reclaim({
      ctx: ctxFor(scene().db, ORG.managing, T0),
      input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'], reason: 'Audience needs it back' },
    });
    for (const orgId of [ORG.tenantA, ORG.managing, ORG.owner, ORG.platform]) {
      const detail = await getVmDetail({ ctx: as(orgId), input: { vmId: 'vm-spot-a' } });
      expect(detail, orgId).toMatchObject({
        vm: { status: 'terminated', terminationReason: 'reclaimed' },
        actions: [],
        reclaimReason: 'Audience needs it back',
      });
    }
    const hidden = await getVmDetail({ ctx: as(ORG.tenantB), input: { vmId: 'vm-spot-a' } }).catch((e: unknown) => e as DomainError);
    expect((hidden as DomainError).code).toBe('not_found');
  });
});
