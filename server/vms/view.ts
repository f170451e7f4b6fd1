import type { vms } from '@/db/schema';
import { type Principal } from '../context';
import { sortUnitIds } from '../ids';
import { maySeeVmOrg } from '../policy';

export type VmRow = typeof vms.$inferSelect;

/** The VM object (docs/product.md §5 Objects). `orgId` only for the operator and the VM's own org (§2). */
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
  /** A running spot VM on a unit with a pending scheduled reclaim: the earliest (docs/product.md §5.6), read at read time. */
  reclaimAt?: string;
};

/**
 * @param showReservation whether the principal may see the VM's reservation (the verbs that
 *   place or end a VM answer its own org or the operator, who may; lists decide per VM).
 */
export function toVmView(
  principal: Principal,
  vm: VmRow,
  unitIds: string[],
  positions: ReadonlyMap<string, number>,
  showReservation = true,
  reclaimAt: Date | null = null,
): VmView {
  const ownerVisible = maySeeVmOrg(principal, vm);
  return {
    id: vm.id,
    nodeId: vm.nodeId,
    unitIds: sortUnitIds(unitIds, positions),
    tier: vm.tier,
    status: vm.status,
    ...(ownerVisible ? { orgId: vm.orgId } : {}),
    ...(vm.reservationId && showReservation ? { reservationId: vm.reservationId } : {}),
    startedAt: vm.startedAt.toISOString(),
    ...(vm.terminatedAt ? { terminatedAt: vm.terminatedAt.toISOString() } : {}),
    ...(vm.terminationReason ? { terminationReason: vm.terminationReason } : {}),
    ...(reclaimAt && vm.status === 'running' && vm.tier === 'spot' ? { reclaimAt: reclaimAt.toISOString() } : {}),
  };
}
