/**
 * A VM's `reservationId` shows only to principals who may see that reservation. Found by the
 * adversarial review: a reserved VM outlives its reservation; the managing org of the next
 * reservation on the unit may see the VM, but must not learn the earlier reservation's id.
 */
import { insertReservation, insertVm } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { getVm } from './get';
import { listVms } from './list';

describe('a VM names its reservation only to those who may see it', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  it('hides an ended reservation from the managing org of the next one', async () => {
    await insertReservation(db(), { id: 'r-secret', nodeId: 'n1', unitIds: ['gpu-6'], allowedOrgIds: [ORG.tenantA], startsAt: hours(-10), endsAt: hours(-2) });
    await insertVm(db(), {
      id: 'vm-outlived',
      nodeId: 'n1',
      orgId: ORG.tenantA,
      tier: 'reserved',
      reservationId: 'r-secret',
      unitIds: ['gpu-6'],
      startedAt: hours(-9),
    });
    await insertReservation(db(), {
      id: 'r-next',
      nodeId: 'n1',
      unitIds: ['gpu-6'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.tenantB],
      startsAt: hours(-1),
    });

    const manager = await getVm({ ctx: ctxFor(db(), ORG.tenantB), input: { vmId: 'vm-outlived' } });
    expect(manager.id).toBe('vm-outlived');
    expect(manager).not.toHaveProperty('reservationId');
    const listed = (await listVms({ ctx: ctxFor(db(), ORG.tenantB), input: {} })).items.find((v) => v.id === 'vm-outlived');
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('reservationId');

    for (const org of [ORG.owner, ORG.platform, ORG.tenantA]) {
      expect(await getVm({ ctx: ctxFor(db(), org), input: { vmId: 'vm-outlived' } }), org).toMatchObject({ reservationId: 'r-secret' });
    }
  });
});
