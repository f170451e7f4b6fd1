import { z } from 'zod';
import { Id } from '../../ids';
import { listFleetActions, listNodeActions } from '../../nodes/actions';
import { getNode } from '../../nodes/get';
import { listNodes } from '../../nodes/list';
import { registerNode } from '../../nodes/register';
import { ChangeTopologyInput, GetNodeInput, ListNodesInput, RegisterNodeInput } from '../../nodes/schemas';
import { changeTopology } from '../../nodes/topology';
import { listTopologyHistory } from '../../nodes/topology-history';
import { NoInput, createTRPCRouter, protectedProcedure } from '../init';

export const nodesRouter = createTRPCRouter({
  get: protectedProcedure.input(GetNodeInput).query(({ ctx, input }) => getNode({ ctx: ctx.verbCtx, input })),
  list: protectedProcedure.input(ListNodesInput).query(({ ctx, input }) => listNodes({ ctx: ctx.verbCtx, input })),
  register: protectedProcedure.input(RegisterNodeInput).mutation(({ ctx, input }) => registerNode({ ctx: ctx.verbCtx, input })),
  changeTopology: protectedProcedure.input(ChangeTopologyInput).mutation(({ ctx, input }) => changeTopology({ ctx: ctx.verbCtx, input })),
  actions: protectedProcedure.input(GetNodeInput).query(({ ctx, input }) => listNodeActions({ ctx: ctx.verbCtx, input })),
  fleetActions: protectedProcedure.input(NoInput).query(({ ctx }) => listFleetActions({ ctx: ctx.verbCtx })),
  topologyHistory: protectedProcedure.input(z.object({ nodeId: Id }).strict()).query(({ ctx, input }) => listTopologyHistory({ ctx: ctx.verbCtx, input })),
});
