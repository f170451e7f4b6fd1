import { vmUnits, vms } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { atLockTime, inTransaction, isOperator, type Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { sortUnitIds } from '../ids';
import { findNode, loadUnitPositions } from '../nodes/internal';
import { vmVisibleTo } from '../policy';
import { toVmViews } from './internal';
import type { GetVmInput } from './schemas';
import { toVmView, type VmView } from './view';

/**
 * Terminates a VM (SPEC §5.3): its own org or the operator; owners and managing orgs evict
 * through reclaim, the audited path, not by terminating a tenant's VM (§2). Ending a VM that
 * has ended changes nothing.
 * @returns the VM, terminated (reason `terminated`, or `reclaimed` if a reclaim ended it).
 * @throws DomainError not_found (unknown or invisible), forbidden (visible but not its org).
 */
export async function terminateVm({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmView> {
  return inTransaction(ctx, async (tx) => {
    const [seen] = await tx.select({ nodeId: vms.nodeId }).from(vms).where(and(eq(vms.id, input.vmId), vmVisibleTo(ctx, ctx.now)));
    if (!seen) throw notFound(`VM "${input.vmId}"`);
    // Lock order: the node first, like every writer on it, then the VM.
    const node = await findNode(tx, seen.nodeId, 'write');
    const lctx = atLockTime({ ...ctx, db: tx }, node.lockedAt);
    const [vm] = await tx.select().from(vms).where(eq(vms.id, input.vmId)).for('no key update');
    if (!vm) throw notFound(`VM "${input.vmId}"`);
    if (!isOperator(ctx) && vm.orgId !== ctx.orgId) {
      throw new DomainError('forbidden', 'Only the VM’s own org or a platform operator may terminate it; to take units back, reclaim them.');
    }
    if (vm.status === 'terminated') {
      const [view] = await toVmViews(tx, ctx, [vm]);
      return view!;
    }
    const [ended] = await tx.update(vms).set({ status: 'terminated', terminatedAt: lctx.now, terminationReason: 'terminated' }).where(eq(vms.id, vm.id)).returning();
    const freed = await tx.update(vmUnits).set({ running: false }).where(eq(vmUnits.vmId, vm.id)).returning({ unitId: vmUnits.unitId });
    const positions = await loadUnitPositions(tx, node.id);
    await writeAuditEvent(tx, lctx, {
      action: 'vm.terminate',
      nodeId: node.id,
      reservationId: vm.reservationId ?? undefined,
      unitIds: sortUnitIds(freed.map((f) => f.unitId), positions),
      details: { vmId: vm.id, tier: vm.tier },
    });
    return toVmView(ctx, ended!, freed.map((f) => f.unitId), positions);
  });
}
