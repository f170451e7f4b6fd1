import { getVmDetail } from '../../vms/detail';
import { getVm } from '../../vms/get';
import { listNodeVms, listVms } from '../../vms/list';
import { placeVm } from '../../vms/place';
import { GetVmInput, ListNodeVmsInput, ListVmsInput, PlaceVmInput } from '../../vms/schemas';
import { terminateVm } from '../../vms/terminate';
import { createTRPCRouter, protectedProcedure } from '../init';

export const vmsRouter = createTRPCRouter({
  list: protectedProcedure.input(ListVmsInput).query(({ ctx, input }) => listVms({ ctx: ctx.verbCtx, input })),
  listForNode: protectedProcedure.input(ListNodeVmsInput).query(({ ctx, input }) => listNodeVms({ ctx: ctx.verbCtx, input })),
  get: protectedProcedure.input(GetVmInput).query(({ ctx, input }) => getVm({ ctx: ctx.verbCtx, input })),
  detail: protectedProcedure.input(GetVmInput).query(({ ctx, input }) => getVmDetail({ ctx: ctx.verbCtx, input })),
  place: protectedProcedure.input(PlaceVmInput).mutation(({ ctx, input }) => placeVm({ ctx: ctx.verbCtx, input })),
  terminate: protectedProcedure.input(GetVmInput).mutation(({ ctx, input }) => terminateVm({ ctx: ctx.verbCtx, input })),
});
