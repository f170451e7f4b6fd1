import { z } from 'zod';
import { Id } from '../../ids';
import { getNode, GetNodeInput, listNodes, ListNodesInput } from '../../nodes';
import { changeTopology, ChangeTopologyInput, listTopologyHistory, registerNode, RegisterNodeInput } from '../../topology';
import { createTRPCRouter, protectedProcedure } from '../init';

export const nodesRouter = createTRPCRouter({
  get: protectedProcedure.input(GetNodeInput).query(({ ctx, input }) => getNode({ ctx: ctx.verbCtx, input })),
  list: protectedProcedure.input(ListNodesInput).query(({ ctx, input }) => listNodes({ ctx: ctx.verbCtx, input })),
  register: protectedProcedure.input(RegisterNodeInput).mutation(({ ctx, input }) => registerNode({ ctx: ctx.verbCtx, input })),
  changeTopology: protectedProcedure.input(ChangeTopologyInput).mutation(({ ctx, input }) => changeTopology({ ctx: ctx.verbCtx, input })),
  topologyHistory: protectedProcedure.input(z.object({ nodeId: Id }).strict()).query(({ ctx, input }) => listTopologyHistory({ ctx: ctx.verbCtx, input })),
});
