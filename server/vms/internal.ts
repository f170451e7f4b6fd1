import type { DbOrTx, Tx } from '@/db/client';
import { vmUnits, vms } from '@/db/schema';
import { inArray } from 'drizzle-orm';
import type { Ctx, Principal } from '../context';
import { loadUnitPositions } from '../nodes/internal';
import { toVmView, type VmRow, type VmView } from './view';

/** VM objects for `rows`, each with its units in node order, as the principal may see them. */
export async function toVmViews(db: DbOrTx, principal: Principal, rows: VmRow[]): Promise<VmView[]> {
  if (rows.length === 0) return [];
  const units = await db.select({ vmId: vmUnits.vmId, unitId: vmUnits.unitId }).from(vmUnits).where(inArray(vmUnits.vmId, rows.map((v) => v.id)));
  const positionsByNode = new Map<string, Map<string, number>>();
  for (const nodeId of new Set(rows.map((v) => v.nodeId))) positionsByNode.set(nodeId, await loadUnitPositions(db, nodeId));
  const unitsOf = new Map<string, string[]>();
  for (const u of units) unitsOf.set(u.vmId, [...(unitsOf.get(u.vmId) ?? []), u.unitId]);
  return rows.map((vm) => toVmView(principal, vm, unitsOf.get(vm.id) ?? [], positionsByNode.get(vm.nodeId) ?? new Map()));
}

/**
 * Ends running VMs at `ctx.now`, whole: status `terminated` with the reason (a reclaim's
 * `reclaimed`, a tenant's own `terminated`) and every unit of each freed at once, so the
 * partial unique index on running units sees them go together. The caller holds the node
 * lock and has locked the VMs (by id).
 * @returns the ended rows and, per VM id, the units it freed.
 */
export async function endVms(tx: Tx, ctx: Ctx, vmIds: readonly string[], reason: 'reclaimed' | 'terminated'): Promise<{ ended: VmRow[]; unitsOf: Map<string, string[]> }> {
  const unitsOf = new Map<string, string[]>();
  if (vmIds.length === 0) return { ended: [], unitsOf };
  const ended = await tx.update(vms).set({ status: 'terminated', terminatedAt: ctx.now, terminationReason: reason }).where(inArray(vms.id, [...vmIds])).returning();
  const freed = await tx.update(vmUnits).set({ running: false }).where(inArray(vmUnits.vmId, [...vmIds])).returning({ vmId: vmUnits.vmId, unitId: vmUnits.unitId });
  for (const f of freed) unitsOf.set(f.vmId, [...(unitsOf.get(f.vmId) ?? []), f.unitId]);
  return { ended, unitsOf };
}
