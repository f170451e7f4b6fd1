import { listAuditEvents } from '../../audit/list';
import { ListAuditInput } from '../../audit/schemas';
import { countUnreadNotifications } from '../../notifications/count-unread';
import { listNotifications } from '../../notifications/list';
import { markNotificationRead } from '../../notifications/read';
import { ListNotificationsInput, MarkNotificationReadInput } from '../../notifications/schemas';
import { NoInput, createTRPCRouter, protectedProcedure } from '../init';

export const auditRouter = createTRPCRouter({
  list: protectedProcedure.input(ListAuditInput).query(({ ctx, input }) => listAuditEvents({ ctx: ctx.verbCtx, input })),
  notifications: protectedProcedure.input(ListNotificationsInput).query(({ ctx, input }) => listNotifications({ ctx: ctx.verbCtx, input })),
  unreadNotificationCount: protectedProcedure.input(NoInput).query(({ ctx }) => countUnreadNotifications({ ctx: ctx.verbCtx })),
  markNotificationRead: protectedProcedure.input(MarkNotificationReadInput).mutation(({ ctx, input }) => markNotificationRead({ ctx: ctx.verbCtx, input })),
});
