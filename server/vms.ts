import { and, arrayContains, asc, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { findNode } from './access';
import { isOperator, type Ctx } from './context';
import { Id } from './ids';
import { loadUnitPositions } from './reservation-view';
import { toVmView, type VmView } from './vm-view';

export const ListNodeVmsInput = z.object({ nodeId: Id, status: z.enum(['running', 'terminated']).optional() }).strict();
export type ListNodeVmsInput = z.infer<typeof ListNodeVmsInput>;

/**
 * The VMs on a node that the caller may see (SPEC §2 "see a VM's id and units"): all for the
 * operator and the node owner; for a managing org, those on units of reservations it manages;
 * for everyone, their own. Newest first; at most 500.
 * @throws DomainError not_found for an unknown node.
 */
export async function listNodeVms({ ctx, input }: { ctx: Ctx; input: ListNodeVmsInput }): Promise<VmView[]> {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const seesAll = isOperator(ctx) || node.ownerOrgId === ctx.orgId;
  const rows = await ctx.db
    .select()
    .from(vms)
    .where(and(eq(vms.nodeId, node.id), input.status ? eq(vms.status, input.status) : undefined))
    .orderBy(desc(vms.startedAt), asc(vms.id))
    .limit(500);
  if (rows.length === 0) return [];
  const [unitRows, managed, positions] = await Promise.all([
    ctx.db
      .select({ vmId: vmUnits.vmId, unitId: vmUnits.unitId })
      .from(vmUnits)
      .where(inArray(vmUnits.vmId, rows.map((v) => v.id))),
    seesAll
      ? Promise.resolve([])
      : ctx.db
          .select({ unitId: reservationUnits.unitId })
          .from(reservationUnits)
          .innerJoin(reservations, eq(reservations.id, reservationUnits.reservationId))
          .where(and(eq(reservationUnits.nodeId, node.id), eq(reservationUnits.cancelled, false), arrayContains(reservations.managingOrgIds, [ctx.orgId]))),
    loadUnitPositions(ctx.db, node.id),
  ]);
  const unitsOf = new Map<string, string[]>();
  for (const u of unitRows) unitsOf.set(u.vmId, [...(unitsOf.get(u.vmId) ?? []), u.unitId]);
  const managedUnits = new Set(managed.map((m) => m.unitId));
  return rows
    .filter((vm) => seesAll || vm.orgId === ctx.orgId || (unitsOf.get(vm.id) ?? []).some((u) => managedUnits.has(u)))
    .map((vm) => toVmView(ctx, vm, unitsOf.get(vm.id) ?? [], positions));
}
