import { vms } from '@/db/schema';
import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { readNode } from '../nodes/internal';
import { withOrgNames, type Named } from '../orgs/internal';
import { decodeCursor, toPage } from '../pagination';
import { offeredVmActions, orgIdsNamedWithVm, vmVisibleTo, type VmAction } from '../policy';
import { toVmViews } from './internal';
import type { ListNodeVmsInput, ListVmsInput } from './schemas';
import type { VmRow, VmView } from './view';

/**
 * Each VM's view with the name of its org where the caller sees that org (`orgNames`,
 * docs/product.md §9.1 q: the operator and the VM's own org, server/policy.ts `orgIdsNamedWithVm`).
 */
async function namedVmViews(ctx: Ctx, rows: VmRow[]): Promise<Named<VmView>[]> {
  return withOrgNames(ctx, await toVmViews(ctx.db, ctx, rows), (_, i) => orgIdsNamedWithVm(ctx, rows[i]!));
}

/**
 * The VMs the caller may see (docs/product.md §2), filtered by node, status, tier and a window
 * (`since`, `until`: the run meets it, §5.8); by id, paginated. An export pages through this very verb.
 * @returns `{ items: Vm[], nextCursor? }`, each with its org's name where the caller sees its org
 *   (`orgNames`, the console's; REST answers the VMs alone).
 */
export async function listVms({ ctx, input }: { ctx: Ctx; input: ListVmsInput }): Promise<{ items: Named<VmView>[]; nextCursor?: string }> {
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
        // The window (docs/product.md §5.8): a VM whose run [startedAt, terminatedAt or never) meets [since, until).
        input.since ? or(isNull(vms.terminatedAt), gt(vms.terminatedAt, input.since)) : undefined,
        input.until ? lt(vms.startedAt, input.until) : undefined,
        input.cursor !== undefined ? gt(vms.id, decodeCursor(input.cursor)) : undefined,
      ),
    )
    .orderBy(asc(vms.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (v) => v.id,
    (kept) => namedVmViews(ctx, kept),
  );
}

/**
 * The VMs on one node the caller may see, newest first, at most 500 (the node page), each with
 * the actions the console may offer on it (server/policy.ts `offeredVmActions`) and its org's
 * name where the caller sees its org (`orgNames`).
 * @throws DomainError not_found for an unknown node.
 */
export async function listNodeVms({ ctx, input }: { ctx: Ctx; input: ListNodeVmsInput }): Promise<Named<VmView & { actions: VmAction[] }>[]> {
  const node = await readNode(ctx, input.nodeId);
  const rows = await ctx.db
    .select()
    .from(vms)
    .where(and(eq(vms.nodeId, node.id), input.status ? eq(vms.status, input.status) : undefined, vmVisibleTo(ctx, ctx.now)))
    .orderBy(sql`${vms.startedAt} desc`, asc(vms.id))
    .limit(500);
  const views = await namedVmViews(ctx, rows);
  return views.map((v, i) => ({ ...v, actions: offeredVmActions(ctx, rows[i]!) }));
}
