import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG } from '../testing/scene';
import { getUnit } from './get-unit';

const scene = useFreshScene();
const unit = (orgId: string, unitId: string, nodeId = 'n1') => getUnit({ ctx: ctxFor(scene().db, orgId), input: { nodeId, unitId } });

describe('one unit (GET /v1/nodes/{nodeId}/units/{unitId}, docs/product.md §5)', () => {
  it('shows the unit as the node does, with the VM on it to those who may see that VM', async () => {
    // gpu-0: released by r1, running tenant A's spot VM.
    const own = await unit(ORG.tenantA, 'gpu-0');
    expect(own).toMatchObject({ id: 'gpu-0', nodeId: 'n1', state: 'spot-occupied', vmId: 'vm-spot-a' });
    expect(own.vm).toMatchObject({ id: 'vm-spot-a', tier: 'spot', status: 'running', unitIds: ['gpu-0', 'gpu-1'], orgId: ORG.tenantA });
    // Another tenant sees the state, not whose VM it is nor which.
    const other = await unit(ORG.tenantB, 'gpu-0');
    expect(other).toMatchObject({ id: 'gpu-0', state: 'spot-occupied' });
    expect(other.vmId).toBeUndefined();
    expect(other.vm).toBeUndefined();
    // The owner sees the VM, not its org (docs/product.md §2 "see which org owns a VM").
    const owner = await unit(ORG.owner, 'gpu-0');
    expect(owner.vm?.id).toBe('vm-spot-a');
    expect(owner.vm?.orgId).toBeUndefined();
    // An idle unit has no VM.
    expect((await unit(ORG.owner, 'gpu-3')).vm).toBeUndefined();
  });

  it('is 404 for a unit the node does not have and for an unknown node', async () => {
    for (const [nodeId, unitId] of [
      ['n1', 'gpu-99'],
      ['n-missing', 'gpu-0'],
    ] as const) {
      const e = await unit(ORG.owner, unitId, nodeId).catch((x: unknown) => x);
      expect(e, `${nodeId}/${unitId}`).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('not_found');
    }
  });
});
