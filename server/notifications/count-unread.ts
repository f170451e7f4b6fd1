import { notifications } from '@/db/schema';
import { and, count, isNull } from 'drizzle-orm';
import type { Ctx } from '../context';
import { notificationsVisibleTo } from '../policy';

/**
 * How many of the acting org's notifications are unread: the console header's bell
 * (docs/product.md §6), on every page.
 * @returns `{ unread }`
 */
export async function countUnreadNotifications({ ctx }: { ctx: Ctx }): Promise<{ unread: number }> {
  const [row] = await ctx.db
    .select({ unread: count() })
    .from(notifications)
    .where(and(notificationsVisibleTo(ctx), isNull(notifications.readAt)));
  return { unread: row?.unread ?? 0 };
}
