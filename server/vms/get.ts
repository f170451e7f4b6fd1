import type { Ctx } from '../context';
import { findVisibleVm } from './internal';
import type { GetVmInput } from './schemas';
import type { VmView } from './view';

/** One VM the caller may see. @throws DomainError not_found (unknown or invisible). */
export async function getVm({ ctx, input }: { ctx: Ctx; input: GetVmInput }): Promise<VmView> {
  return (await findVisibleVm(ctx, input.vmId)).view;
}
