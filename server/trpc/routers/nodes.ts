import { getNode, GetNodeInput, listNodes, ListNodesInput } from '../../nodes';
import { createTRPCRouter, protectedProcedure } from '../init';

export const nodesRouter = createTRPCRouter({
  get: protectedProcedure.input(GetNodeInput).query(({ ctx, input }) => getNode({ ctx: ctx.verbCtx, input })),
  list: protectedProcedure.input(ListNodesInput).query(({ ctx, input }) => listNodes({ ctx: ctx.verbCtx, input })),
});
