import { cancelReservation } from '../../reservations/cancel';
import { createReservation } from '../../reservations/create';
import { getReservation } from '../../reservations/get';
import { getReservationHistory } from '../../reservations/history';
import { listNodeReservations, listReservations } from '../../reservations/list';
import { getReservationOffers } from '../../reservations/offers';
import { reaffirm } from '../../reservations/reaffirm';
import { reclaim } from '../../reservations/reclaim';
import { release } from '../../reservations/release';
import {
  CancelReservationInput,
  CreateReservationInput,
  GetReservationInput,
  ListNodeReservationsInput,
  ListReservationsInput,
  ReaffirmInput,
  ReclaimInput,
  ReleaseInput,
  UpdateReservationInput,
} from '../../reservations/schemas';
import { updateReservation } from '../../reservations/update';
import { createTRPCRouter, protectedProcedure } from '../init';

export const reservationsRouter = createTRPCRouter({
  get: protectedProcedure.input(GetReservationInput).query(({ ctx, input }) => getReservation({ ctx: ctx.verbCtx, input })),
  offers: protectedProcedure.input(GetReservationInput).query(({ ctx, input }) => getReservationOffers({ ctx: ctx.verbCtx, input })),
  history: protectedProcedure.input(GetReservationInput).query(({ ctx, input }) => getReservationHistory({ ctx: ctx.verbCtx, input })),
  list: protectedProcedure.input(ListReservationsInput).query(({ ctx, input }) => listReservations({ ctx: ctx.verbCtx, input })),
  listForNode: protectedProcedure.input(ListNodeReservationsInput).query(({ ctx, input }) => listNodeReservations({ ctx: ctx.verbCtx, input })),
  create: protectedProcedure.input(CreateReservationInput).mutation(({ ctx, input }) => createReservation({ ctx: ctx.verbCtx, input })),
  update: protectedProcedure.input(UpdateReservationInput).mutation(({ ctx, input }) => updateReservation({ ctx: ctx.verbCtx, input })),
  cancel: protectedProcedure.input(CancelReservationInput).mutation(({ ctx, input }) => cancelReservation({ ctx: ctx.verbCtx, input })),
  release: protectedProcedure.input(ReleaseInput).mutation(({ ctx, input }) => release({ ctx: ctx.verbCtx, input })),
  reclaim: protectedProcedure.input(ReclaimInput).mutation(({ ctx, input }) => reclaim({ ctx: ctx.verbCtx, input })),
  reaffirm: protectedProcedure.input(ReaffirmInput).mutation(({ ctx, input }) => reaffirm({ ctx: ctx.verbCtx, input })),
});
