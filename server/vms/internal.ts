import type { DbOrTx, Tx } from '@/db/client';
import { nodeUnits, nodes, reservations, vmUnits, vms } from '@/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx, Principal } from '../context';
import { notFound } from '../errors';
import { maySeeReservation, relationTo, vmVisibleTo } from '../policy';
import { toDateOrNull, unitReclaimAt } from '../scheduled-reclaims/reclaim-at';
import { toVmView, type VmRow, type VmView } from './view';

/**
 * VM objects for `rows`, each with its units in node order, as the principal may see them:
 * `reservationId` only where the principal may see that reservation (a managing org of a
 * later reservation may see a reserved VM that outlived an earlier one, not the earlier one).
 * Three queries whatever the number of rows.
 */
export async function toVmViews(db: DbOrTx, principal: Principal, rows: VmRow[]): Promise<VmView[]> {
  if (rows.length === 0) return [];
  const nodeIds = [...new Set(rows.map((v) => v.nodeId))];
  const reservationIds = [...new Set(rows.flatMap((v) => (v.reservationId ? [v.reservationId] : [])))];
  const [units, positionRows, held] = await Promise.all([
    db
      .select({
        vmId: vmUnits.vmId,
        unitId: vmUnits.unitId,
        // Computed at read time (docs/product.md §5.6), so VMs placed before and after a schedule both carry it.
        reclaimAt:
          sql<Date | null>`case when "vm_units"."running" then ${unitReclaimAt(sql.raw('"vm_units"."node_id"'), sql.raw('"vm_units"."unit_id"'))} end`.mapWith(
            toDateOrNull,
          ),
      })
      .from(vmUnits)
      .where(
        inArray(
          vmUnits.vmId,
          rows.map((v) => v.id),
        ),
      ),
    db.select({ nodeId: nodeUnits.nodeId, unitId: nodeUnits.unitId, position: nodeUnits.position }).from(nodeUnits).where(inArray(nodeUnits.nodeId, nodeIds)),
    reservationIds.length === 0
      ? Promise.resolve([])
      : db
          .select({
            nodeId: reservations.nodeId,
            id: reservations.id,
            allowedOrgIds: reservations.allowedOrgIds,
            managingOrgIds: reservations.managingOrgIds,
            ownerOrgId: nodes.ownerOrgId,
          })
          .from(reservations)
          .innerJoin(nodes, eq(nodes.id, reservations.nodeId))
          .where(and(inArray(reservations.nodeId, nodeIds), inArray(reservations.id, reservationIds))),
  ]);
  const positionsByNode = new Map<string, Map<string, number>>(nodeIds.map((id) => [id, new Map()]));
  for (const p of positionRows) positionsByNode.get(p.nodeId)?.set(p.unitId, p.position);
  const unitsOf = new Map<string, string[]>();
  const reclaimAtOf = new Map<string, Date>();
  for (const u of units) {
    unitsOf.set(u.vmId, [...(unitsOf.get(u.vmId) ?? []), u.unitId]);
    const prev = reclaimAtOf.get(u.vmId);
    if (u.reclaimAt && (!prev || u.reclaimAt < prev)) reclaimAtOf.set(u.vmId, u.reclaimAt);
  }
  const visible = new Set(held.filter((r) => maySeeReservation(relationTo(principal, r, r))).map((r) => `${r.nodeId}/${r.id}`));
  return rows.map((vm) =>
    toVmView(
      principal,
      vm,
      unitsOf.get(vm.id) ?? [],
      positionsByNode.get(vm.nodeId) ?? new Map(),
      vm.reservationId !== null && visible.has(`${vm.nodeId}/${vm.reservationId}`),
      reclaimAtOf.get(vm.id) ?? null,
    ),
  );
}

/**
 * Ends running VMs at `ctx.now`, whole: status `terminated` with the reason (a reclaim's
 * `reclaimed`, a tenant's own `terminated`) and every unit of each freed at once, so the
 * partial unique index on running units sees them go together. The caller holds the node
 * lock and has locked the VMs (by id).
 * @returns the ended rows and, per VM id, the units it freed.
 */
export async function endVms(
  tx: Tx,
  ctx: Ctx,
  vmIds: readonly string[],
  reason: 'reclaimed' | 'terminated',
): Promise<{ ended: VmRow[]; unitsOf: Map<string, string[]> }> {
  const unitsOf = new Map<string, string[]>();
  if (vmIds.length === 0) return { ended: [], unitsOf };
  const ended = await tx
    .update(vms)
    .set({ status: 'terminated', terminatedAt: ctx.now, terminationReason: reason })
    .where(inArray(vms.id, [...vmIds]))
    .returning();
  const freed = await tx
    .update(vmUnits)
    .set({ running: false })
    .where(inArray(vmUnits.vmId, [...vmIds]))
    .returning({ vmId: vmUnits.vmId, unitId: vmUnits.unitId });
  for (const f of freed) unitsOf.set(f.vmId, [...(unitsOf.get(f.vmId) ?? []), f.unitId]);
  return { ended, unitsOf };
}

/** The VM `vmId` as the caller may see it: its row and its view. @throws DomainError not_found (unknown or invisible). */
export async function findVisibleVm(ctx: Ctx, vmId: string): Promise<{ row: VmRow; view: VmView }> {
  const [row] = await ctx.db
    .select()
    .from(vms)
    .where(and(eq(vms.id, vmId), vmVisibleTo(ctx, ctx.now)));
  if (!row) throw notFound(`VM "${vmId}"`);
  const [view] = await toVmViews(ctx.db, ctx, [row]);
  return { row, view: view! };
}
