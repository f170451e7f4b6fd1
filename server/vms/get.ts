import { vms } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../context';
import { notFound } from '../errors';
import { vmVisibleTo } from '../policy';
import { toVmViews } from './internal';
import type { GetVmInput } from './schemas';
import type { VmView } from './view';

/** One VM the caller may see. @throws DomainError not_found (unknown or invisible). */
export async function getVm({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmView> {
  const [vm] = await ctx.db
    .select()
    .from(vms)
    .where(and(eq(vms.id, input.vmId), vmVisibleTo(ctx, ctx.now)));
  if (!vm) throw notFound(`VM "${input.vmId}"`);
  const [view] = await toVmViews(ctx.db, ctx, [vm]);
  return view!;
}
