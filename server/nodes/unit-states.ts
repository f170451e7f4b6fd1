import type { DbOrTx } from '@/db/client';
import { nodeUnits, reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { type Principal } from '../context';
import { maySeeReservation, maySeeRunningVm, relationTo } from '../policy';
import { unitReclaimAt } from '../scheduled-reclaims/reclaim-at';

export const unitStates = ['withheld', 'spot-occupied', 'released', 'reserved-occupied', 'reserved', 'occupied', 'free'] as const;

export type UnitState = (typeof unitStates)[number];

export type UnitView = {
  id: string;
  state: UnitState;
  model?: string;
  memoryGiB?: number;
  nvlinkDomain?: string;
  reservationId?: string;
  vmId?: string;
  /** The earliest pending scheduled reclaim of the unit (docs/product.md §5.6), to everyone who may place spot there. */
  reclaimAt?: string;
  /**
   * When the next reservation that holds the unit starts, if one lies ahead (docs/product.md §3):
   * to everyone, like the state it will bring; the reservation's id only where `reservationId` shows it.
   */
  reservedFrom?: string;
};

export type NodeUnitRow = {
  nodeId: string;
  unitId: string;
  position: number;
  model: string | null;
  memoryGiB: number | null;
  nvlinkDomain: string | null;
  /** Absent where the caller read none (a placement's own check). */
  reclaimAt?: Date | null;
};

/** A reservation's hold on one unit, with what visibility and status need. */
export type HoldRow = {
  nodeId: string;
  unitId: string;
  reservationId: string;
  released: boolean;
  startsAt: Date;
  topologyGen: number;
  allowedOrgIds: string[];
  managingOrgIds: string[];
};

export type RunningVmRow = { nodeId: string; unitId: string; vmId: string; orgId: string };

/**
 * Computes each unit's state (docs/product.md §3's precedence) and what of it the principal may see.
 * Pure: the caller loads the node's units, the non-cancelled holds that cover `now` or start
 * later, and the running VMs.
 *
 * Reservation ids show to principals who may see the reservation (docs/product.md §2); a free unit
 * whose only holds lie in the future names the next one. VM ids show to the operator, the
 * node owner, managing orgs of the unit's current reservation, and the VM's own org. The start of
 * the next hold ahead (`reservedFrom`) shows to everyone: it says when the unit stops being
 * free, as the state says it is held now, and names no holder.
 */
export function computeUnitViews(
  principal: Principal,
  node: { ownerOrgId: string; topologyGen: number },
  units: readonly NodeUnitRow[],
  holds: readonly HoldRow[],
  running: readonly RunningVmRow[],
  now: Date,
): UnitView[] {
  const t = now.getTime();
  const current = new Map<string, HoldRow>();
  const upcoming = new Map<string, HoldRow>();
  for (const h of holds) {
    if (h.startsAt.getTime() <= t) current.set(h.unitId, h);
    else {
      const prev = upcoming.get(h.unitId);
      if (!prev || h.startsAt < prev.startsAt) upcoming.set(h.unitId, h);
    }
  }
  const vmByUnit = new Map(running.map((r) => [r.unitId, r]));
  const maySee = (h: HoldRow) => maySeeReservation(relationTo(principal, node, h));

  return units.map((u) => {
    const hold = current.get(u.unitId);
    const vm = vmByUnit.get(u.unitId);
    let state: UnitState;
    if (hold && hold.topologyGen < node.topologyGen) state = 'withheld';
    else if (hold && hold.released) state = vm ? 'spot-occupied' : 'released';
    else if (hold) state = vm ? 'reserved-occupied' : 'reserved';
    else state = vm ? 'occupied' : 'free';

    const next = upcoming.get(u.unitId);
    const named = hold ?? (state === 'free' ? next : undefined);
    const vmVisible = vm && maySeeRunningVm(principal, node, vm, hold?.managingOrgIds.includes(principal.orgId) ?? false);
    return {
      id: u.unitId,
      state,
      ...(u.model != null ? { model: u.model } : {}),
      ...(u.memoryGiB != null ? { memoryGiB: u.memoryGiB } : {}),
      ...(u.nvlinkDomain != null ? { nvlinkDomain: u.nvlinkDomain } : {}),
      ...(named && maySee(named) ? { reservationId: named.reservationId } : {}),
      ...(vm && vmVisible ? { vmId: vm.vmId } : {}),
      ...(u.reclaimAt ? { reclaimAt: u.reclaimAt.toISOString() } : {}),
      ...(next ? { reservedFrom: next.startsAt.toISOString() } : {}),
    };
  });
}

/** Per-state unit counts, every state present. */
export function countUnitStates(units: readonly { state: UnitState }[]): Record<UnitState, number> {
  const counts = Object.fromEntries(unitStates.map((s) => [s, 0])) as Record<UnitState, number>;
  for (const u of units) counts[u.state] += 1;
  return counts;
}

/**
 * Loads what `computeUnitViews` needs for a set of nodes, in three indexed queries.
 * @returns rows grouped by node id.
 */
export async function loadUnitInputs(db: DbOrTx, nodeIds: string[], now: Date) {
  const byNode = <T extends { nodeId: string }>(rows: T[]) => {
    const m = new Map<string, T[]>(nodeIds.map((id) => [id, []]));
    for (const r of rows) m.get(r.nodeId)?.push(r);
    return m;
  };
  if (nodeIds.length === 0) return { units: byNode<NodeUnitRow>([]), holds: byNode<HoldRow>([]), running: byNode<RunningVmRow>([]) };
  const [units, holds, running] = await Promise.all([
    db
      .select({
        nodeId: nodeUnits.nodeId,
        unitId: nodeUnits.unitId,
        position: nodeUnits.position,
        model: nodeUnits.model,
        memoryGiB: nodeUnits.memoryGiB,
        nvlinkDomain: nodeUnits.nvlinkDomain,
        // A notice to every reader (docs/product.md §5.6): the unit's earliest pending scheduled reclaim.
        reclaimAt: unitReclaimAt(sql.raw('"node_units"."node_id"'), sql.raw('"node_units"."unit_id"')),
      })
      .from(nodeUnits)
      .where(inArray(nodeUnits.nodeId, nodeIds))
      .orderBy(asc(nodeUnits.nodeId), asc(nodeUnits.position)),
    db
      .select({
        nodeId: reservationUnits.nodeId,
        unitId: reservationUnits.unitId,
        reservationId: reservationUnits.reservationId,
        released: reservationUnits.released,
        startsAt: reservationUnits.startsAt,
        topologyGen: reservations.topologyGen,
        allowedOrgIds: reservations.allowedOrgIds,
        managingOrgIds: reservations.managingOrgIds,
      })
      .from(reservationUnits)
      .innerJoin(reservations, and(eq(reservations.nodeId, reservationUnits.nodeId), eq(reservations.id, reservationUnits.reservationId)))
      // Both sides narrowed to the page's nodes, so each is read through its index rather than
      // hash-joined whole (the reservations table grows with the fleet, the page does not).
      .where(
        and(
          inArray(reservationUnits.nodeId, nodeIds),
          inArray(reservations.nodeId, nodeIds),
          sql`not ${reservationUnits.cancelled}`,
          or(isNull(reservationUnits.endsAt), gt(reservationUnits.endsAt, now)),
        ),
      ),
    db
      .select({ nodeId: vmUnits.nodeId, unitId: vmUnits.unitId, vmId: vmUnits.vmId, orgId: vms.orgId })
      .from(vmUnits)
      .innerJoin(vms, eq(vms.id, vmUnits.vmId))
      // `running` as a literal: the partial index `vm_units … WHERE running` serves it; the VM
      // side by its node index, never the whole (mostly terminated) VM table.
      .where(and(inArray(vmUnits.nodeId, nodeIds), sql`${vmUnits.running}`, inArray(vms.nodeId, nodeIds), sql`${vms.status} = 'running'`)),
  ]);
  return { units: byNode(units), holds: byNode(holds), running: byNode(running) };
}
