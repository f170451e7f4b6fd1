import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db/client';
import { nodes, vmTiers, vmUnits, vms } from '@/db/schema';
import { findNode } from './access';
import { writeAuditEvent } from './audit';
import { atLockTime, inTransaction, isOperator, type Ctx, type Principal } from './context';
import { DomainError, notFound } from './errors';
import { Id, sortUnitIds } from './ids';
import { Limit, LimitNumber, decodeCursor, toPage } from './pagination';
import { loadUnitPositions } from './reservation-view';
import { toVmView, type VmRow, type VmView } from './vm-view';

/**
 * SQL condition: the principal may see this VM's id and units (SPEC §2): the operator all;
 * the node owner those on its nodes; a managing org those that ran on a unit of a
 * (non-cancelled) reservation it manages while that reservation held it — the VM's run
 * [startedAt, terminatedAt or now) meets the period [startsAt, endsAt); everyone their own.
 */
export function vmVisibleTo(principal: Principal, now: Date): SQL | undefined {
  if (isOperator(principal)) return undefined;
  return sql`(${vms.orgId} = ${principal.orgId}
    or exists (select 1 from ${nodes} n where n.id = ${vms.nodeId} and n.owner_org_id = ${principal.orgId})
    or exists (
      select 1 from vm_units vu
      join reservation_units ru on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and not ru.cancelled
      join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
      where vu.vm_id = ${vms.id} and ${principal.orgId} = any(r.managing_org_ids)
        and ru.starts_at < coalesce(${vms.terminatedAt}, ${now.toISOString()}::timestamptz)
        and (ru.ends_at is null or ru.ends_at > ${vms.startedAt})))`;
}

async function toVmViews(db: DbOrTx, principal: Principal, rows: VmRow[]): Promise<VmView[]> {
  if (rows.length === 0) return [];
  const units = await db.select({ vmId: vmUnits.vmId, unitId: vmUnits.unitId }).from(vmUnits).where(inArray(vmUnits.vmId, rows.map((v) => v.id)));
  const positionsByNode = new Map<string, Map<string, number>>();
  for (const nodeId of new Set(rows.map((v) => v.nodeId))) positionsByNode.set(nodeId, await loadUnitPositions(db, nodeId));
  const unitsOf = new Map<string, string[]>();
  for (const u of units) unitsOf.set(u.vmId, [...(unitsOf.get(u.vmId) ?? []), u.unitId]);
  return rows.map((vm) => toVmView(principal, vm, unitsOf.get(vm.id) ?? [], positionsByNode.get(vm.nodeId) ?? new Map()));
}

export const ListVmsInput = z
  .object({
    nodeId: Id.optional(),
    status: z.enum(['running', 'terminated']).optional(),
    tier: z.enum(vmTiers).optional(),
    limit: LimitNumber.optional(),
    cursor: z.string().optional(),
  })
  .strict();
export type ListVmsInput = z.infer<typeof ListVmsInput>;
/** Query of `GET /v1/vms`. */
export const ListVmsQuery = ListVmsInput.extend({ limit: Limit.optional() });

/**
 * The VMs the caller may see (SPEC §2), filtered by node, status and tier; by id, paginated.
 * @returns `{ items: Vm[], nextCursor? }`
 */
export async function listVms({ ctx, input }: { ctx: Ctx; input: ListVmsInput }): Promise<{ items: VmView[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const rows = await ctx.db
    .select()
    .from(vms)
    .where(
      and(
        vmVisibleTo(ctx, ctx.now),
        input.nodeId ? eq(vms.nodeId, input.nodeId) : undefined,
        input.status ? eq(vms.status, input.status) : undefined,
        input.tier ? eq(vms.tier, input.tier) : undefined,
        input.cursor !== undefined ? gt(vms.id, decodeCursor(input.cursor)) : undefined,
      ),
    )
    .orderBy(asc(vms.id))
    .limit(limit + 1);
  const page = toPage(rows, limit, (v) => v.id);
  return { items: await toVmViews(ctx.db, ctx, page.items), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export const ListNodeVmsInput = z.object({ nodeId: Id, status: z.enum(['running', 'terminated']).optional() }).strict();
export type ListNodeVmsInput = z.infer<typeof ListNodeVmsInput>;

/**
 * The VMs on one node the caller may see, newest first, at most 500 (the node page).
 * @throws DomainError not_found for an unknown node.
 */
export async function listNodeVms({ ctx, input }: { ctx: Ctx; input: ListNodeVmsInput }): Promise<VmView[]> {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const rows = await ctx.db
    .select()
    .from(vms)
    .where(and(eq(vms.nodeId, node.id), input.status ? eq(vms.status, input.status) : undefined, vmVisibleTo(ctx, ctx.now)))
    .orderBy(sql`${vms.startedAt} desc`, asc(vms.id))
    .limit(500);
  return toVmViews(ctx.db, ctx, rows);
}

export const GetVmInput = z.object({ vmId: Id }).strict();
/** Body of `POST /v1/vms/{id}/terminate`: nothing (an empty body is fine). */
export const TerminateVmBody = z.object({}).strict();
export type GetVmInput = z.infer<typeof GetVmInput>;

/** One VM the caller may see. @throws DomainError not_found (unknown or invisible). */
export async function getVm({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmView> {
  const [vm] = await ctx.db.select().from(vms).where(and(eq(vms.id, input.vmId), vmVisibleTo(ctx, ctx.now)));
  if (!vm) throw notFound(`VM "${input.vmId}"`);
  const [view] = await toVmViews(ctx.db, ctx, [vm]);
  return view!;
}

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
