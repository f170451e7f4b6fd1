import type { DbOrTx } from '@/db/client';
import { vmUnits } from '@/db/schema';
import { inArray } from 'drizzle-orm';
import type { Principal } from '../context';
import { loadUnitPositions } from '../nodes/internal';
import { toVmView, type VmRow, type VmView } from './view';

export async function toVmViews(db: DbOrTx, principal: Principal, rows: VmRow[]): Promise<VmView[]> {
  if (rows.length === 0) return [];
  const units = await db.select({ vmId: vmUnits.vmId, unitId: vmUnits.unitId }).from(vmUnits).where(inArray(vmUnits.vmId, rows.map((v) => v.id)));
  const positionsByNode = new Map<string, Map<string, number>>();
  for (const nodeId of new Set(rows.map((v) => v.nodeId))) positionsByNode.set(nodeId, await loadUnitPositions(db, nodeId));
  const unitsOf = new Map<string, string[]>();
  for (const u of units) unitsOf.set(u.vmId, [...(unitsOf.get(u.vmId) ?? []), u.unitId]);
  return rows.map((vm) => toVmView(principal, vm, unitsOf.get(vm.id) ?? [], positionsByNode.get(vm.nodeId) ?? new Map()));
}
