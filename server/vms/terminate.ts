import { textArray } from '@/db/prepared';
import { reservationUnits, reservations, vms } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
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

/** The managing orgs of the (not cancelled) reservations that hold any of `unitIds` now: whose grids show a VM there. */
async function managersOfUnits(tx: Tx, nodeId: string, unitIds: readonly string[], now: Date): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows = await tx
    .selectDistinct({ orgId: sql<string>`unnest(${reservations.managingOrgIds})` })
    .from(reservationUnits)
    .innerJoin(reservations, and(eq(reservations.nodeId, reservationUnits.nodeId), eq(reservations.id, reservationUnits.reservationId)))
    .where(
      and(
        eq(reservationUnits.nodeId, nodeId),
        sql`${reservationUnits.unitId} = any(${textArray(unitIds)})`,
        sql`not ${reservationUnits.cancelled}`,
        sql`${reservationUnits.startsAt} <= ${now.toISOString()}::timestamptz`,
        sql`(${reservationUnits.endsAt} is null or ${reservationUnits.endsAt} > ${now.toISOString()}::timestamptz)`,
      ),
    );
  return rows.map((r) => r.orgId);
}

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
      // The managing orgs of the reservations holding its units see it on their grid (§2).
      to: { ...recipientsOf(node, undefined, vm.orgId), managingOrgIds: await managersOfUnits(tx, node.id, freed, lctx.now) },
      unitIds: sortUnitIds(freed, positions),
      details: { vmId: vm.id, tier: vm.tier },
    });
    return toVmView(ctx, ended[0]!, freed, positions);
  });
}
