import { auditEvents, notifications, type vms } from '@/db/schema';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { nameShownOrgs, type OrgNames } from '../orgs/internal';
import { auditEventVisibleTo, notificationsVisibleTo, offeredVmActions, orgIdsNamedWithVm, type VmAction } from '../policy';
import { findVisibleVm } from './internal';
import type { GetVmInput } from './schemas';
import type { VmView } from './view';

/** The VM page's read (docs/product.md §6): the VM, what the console offers on it, and the words its reclaim gave. */
export type VmDetail = { vm: VmView; actions: VmAction[]; reclaimReason?: string; orgNames: OrgNames };

/**
 * One VM the caller may see, as the VM page shows it (console only): the VM object, the
 * actions the console offers on it (Terminate… on a running VM of the org, or any for the
 * operator: server/policy.ts `offeredVmActions`, as on the node page), and for a reclaimed VM
 * the reason its reclaim gave — to those who already read it: the VM's org in its
 * `vm.reclaimed` notification, others in the reclaim's audit event where they may see it (§2);
 * and its org's name where the caller sees its org (`orgNames`, §9.1 q).
 * @throws DomainError not_found (unknown or invisible).
 */
export async function getVmDetail({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmDetail> {
  const { row: vm, view } = await findVisibleVm(ctx, input.vmId);
  const [reclaimReason, orgNames] = await Promise.all([
    vm.terminationReason === 'reclaimed' ? readReclaimReason(ctx, vm) : undefined,
    nameShownOrgs(ctx, orgIdsNamedWithVm(ctx, vm)),
  ]);
  return { vm: view, actions: offeredVmActions(ctx, vm), ...(reclaimReason ? { reclaimReason } : {}), orgNames };
}

async function readReclaimReason(ctx: Ctx, vm: typeof vms.$inferSelect): Promise<string | undefined> {
  const [notice] = await ctx.db
    .select({ reason: sql<string | null>`${notifications.details}->>'reason'` })
    .from(notifications)
    .where(and(notificationsVisibleTo(ctx), eq(notifications.kind, 'vm.reclaimed'), sql`${notifications.details}->>'vmId' = ${vm.id}`))
    .limit(1);
  if (notice) return notice.reason ?? undefined;
  const [event] = await ctx.db
    .select({ reason: auditEvents.reason })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.nodeId, vm.nodeId),
        eq(auditEvents.action, 'reservation.reclaim'),
        sql`${auditEvents.details}->'terminated' ? ${vm.id}`,
        auditEventVisibleTo(ctx),
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return event?.reason ?? undefined;
}
