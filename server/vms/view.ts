import type { vms } from '@/db/schema';
import { isOperator, type Principal } from '../context';
import { sortUnitIds } from '../ids';

export type VmRow = typeof vms.$inferSelect;

/** The VM object (SPEC §5 Objects). `orgId` only for the operator and the VM's own org (§2). */
export type VmView = {
  id: string;
  nodeId: string;
  unitIds: string[];
  tier: VmRow['tier'];
  status: VmRow['status'];
  orgId?: string;
  reservationId?: string;
  startedAt: string;
  terminatedAt?: string;
  terminationReason?: 'reclaimed' | 'terminated';
};

export function toVmView(principal: Principal, vm: VmRow, unitIds: string[], positions: ReadonlyMap<string, number>): VmView {
  const ownerVisible = isOperator(principal) || vm.orgId === principal.orgId;
  return {
    id: vm.id,
    nodeId: vm.nodeId,
    unitIds: sortUnitIds(unitIds, positions),
    tier: vm.tier,
    status: vm.status,
    ...(ownerVisible ? { orgId: vm.orgId } : {}),
    ...(vm.reservationId ? { reservationId: vm.reservationId } : {}),
    startedAt: vm.startedAt.toISOString(),
    ...(vm.terminatedAt ? { terminatedAt: vm.terminatedAt.toISOString() } : {}),
    ...(vm.terminationReason ? { terminationReason: vm.terminationReason } : {}),
  };
}
