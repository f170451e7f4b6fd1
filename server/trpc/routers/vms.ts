import { listNodeVms, ListNodeVmsInput } from '../../vms';
import { createTRPCRouter, protectedProcedure } from '../init';

export const vmsRouter = createTRPCRouter({
  listForNode: protectedProcedure.input(ListNodeVmsInput).query(({ ctx, input }) => listNodeVms({ ctx: ctx.verbCtx, input })),
});
