import { listAuditEvents, ListAuditInput, listNotifications, ListNotificationsInput } from '../../audit-trail';
import { createTRPCRouter, protectedProcedure } from '../init';

export const auditRouter = createTRPCRouter({
  list: protectedProcedure.input(ListAuditInput).query(({ ctx, input }) => listAuditEvents({ ctx: ctx.verbCtx, input })),
  notifications: protectedProcedure.input(ListNotificationsInput).query(({ ctx, input }) => listNotifications({ ctx: ctx.verbCtx, input })),
});
