import { notifications } from '@/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../context';
import { notFound } from '../errors';
import { notificationsVisibleTo } from '../policy';
import type { MarkNotificationReadInput } from './schemas';
import { toNotificationView, type NotificationView } from './view';

/**
 * Marks one of the acting org's notifications read (docs/product.md §5 `POST
 * /v1/notifications/{id}/read`; §6 the notifications page and the header's unread count).
 * Notifications are the acting org's own (§2): another org's answers 404, like an unknown id,
 * the operator's call included. Marking a read notification again keeps its first `readAt`
 * and writes nothing. Not audited: it changes nothing but the org's own inbox.
 * @returns the notification, with `readAt`.
 * @throws DomainError not_found
 */
export async function markNotificationRead({ ctx, input }: { ctx: Ctx; input: MarkNotificationReadInput }): Promise<NotificationView> {
  const mine = and(eq(notifications.id, input.notificationId), notificationsVisibleTo(ctx));
  // One statement: set it when unread; otherwise (already read, or not ours) read it as it is.
  const [updated] = await ctx.db
    .update(notifications)
    .set({ readAt: ctx.now })
    .where(and(mine, isNull(notifications.readAt)))
    .returning();
  if (updated) return toNotificationView(updated);
  const [row] = await ctx.db.select().from(notifications).where(mine);
  if (!row) throw notFound(`Notification "${input.notificationId}"`);
  return toNotificationView(row);
}
