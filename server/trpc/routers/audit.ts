import { listAuditEvents } from '../../audit/list';
import { ListAuditInput } from '../../audit/schemas';
import { listNotifications } from '../../notifications/list';
import { ListNotificationsInput } from '../../notifications/schemas';
import { createTRPCRouter, protectedProcedure } from '../init';

export const auditRouter = createTRPCRouter({
  list: protectedProcedure.input(ListAuditInput).query(({ ctx, input }) => listAuditEvents({ ctx: ctx.verbCtx, input })),
  notifications: protectedProcedure.input(ListNotificationsInput).query(({ ctx, input }) => listNotifications({ ctx: ctx.verbCtx, input })),
});
