import { reclaim, ReclaimInput } from '../../reclaim';
import { getReservation, GetReservationInput, listNodeReservations, ListNodeReservationsInput } from '../../reservations';
import { createTRPCRouter, protectedProcedure } from '../init';

export const reservationsRouter = createTRPCRouter({
  get: protectedProcedure.input(GetReservationInput).query(({ ctx, input }) => getReservation({ ctx: ctx.verbCtx, input })),
  listForNode: protectedProcedure.input(ListNodeReservationsInput).query(({ ctx, input }) => listNodeReservations({ ctx: ctx.verbCtx, input })),
  reclaim: protectedProcedure.input(ReclaimInput).mutation(({ ctx, input }) => reclaim({ ctx: ctx.verbCtx, input })),
});
