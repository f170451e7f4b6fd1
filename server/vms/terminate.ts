import { vms } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { closeIntervals } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { notFound } from '../errors';
import { sortUnitIds } from '../ids';
import { lockNodeSettled } from '../scheduled-reclaims/settle';
import { assertCanTerminateVm, vmVisibleTo } from '../policy';
import { endVms, toVmViews } from './internal';
import type { GetVmInput } from './schemas';
import { toVmView, type VmView } from './view';
import { recipientsOf } from '../events/write';

/**
 * Terminates a VM (docs/product.md §5.3): its own org or the operator; owners and managing orgs evict
 * through reclaim, the audited path, not by terminating a tenant's VM (§2). Ending a VM that
 * has ended changes nothing.
 * @returns the VM, terminated (reason `terminated`, or `reclaimed` if a reclaim ended it).
 * @throws DomainError not_found (unknown or invisible), forbidden (visible but not its org).
 */
export async function terminateVm({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmView> {
  return inTransaction(ctx, async (tx) => {
    const [seen] = await tx
      .select({ nodeId: vms.nodeId })
      .from(vms)
      .where(and(eq(vms.id, input.vmId), vmVisibleTo(ctx, ctx.now)));
    if (!seen) throw notFound(`VM "${input.vmId}"`);
    // Lock order: the node first, like every writer on it, then the VM.
    const { node, ctx: lctx } = await lockNodeSettled(tx, ctx, seen.nodeId);
    const [vm] = await tx.select().from(vms).where(eq(vms.id, input.vmId)).for('no key update');
    if (!vm) throw notFound(`VM "${input.vmId}"`);
    assertCanTerminateVm(ctx, vm);
    if (vm.status === 'terminated') {
      const [view] = await toVmViews(tx, ctx, [vm]);
      return view!;
    }
    const { ended, unitsOf } = await endVms(tx, lctx, [vm.id], 'terminated');
    await closeIntervals(tx, { nodeId: vm.nodeId, vmIds: [vm.id] }, lctx.now, 'terminate');
    const freed = unitsOf.get(vm.id) ?? [];
    const positions = node.positions;
    await writeAuditEvent(tx, lctx, {
      action: 'vm.terminate',
      nodeId: node.id,
      reservationId: vm.reservationId ?? undefined,
      to: recipientsOf(node, undefined, vm.orgId),
      unitIds: sortUnitIds(freed, positions),
      details: { vmId: vm.id, tier: vm.tier },
    });
    return toVmView(ctx, ended[0]!, freed, positions);
  });
}
