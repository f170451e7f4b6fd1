import { notifications } from '@/db/schema';
import { and, desc } from 'drizzle-orm';
import type { Ctx } from '../context';
import { olderThanCursor, toPage } from '../pagination';
import { notificationsVisibleTo } from '../policy';
import type { ListNotificationsInput } from './schemas';
import { toNotificationView, type NotificationView } from './view';

/**
 * The acting org's notifications, newest first (docs/product.md §5; §6: an evicted tenant learns which
 * VM was terminated, when and why).
 * @returns `{ items, nextCursor? }`
 * @throws DomainError invalid_request for a cursor this API did not hand out, or naming another
 *   org's notification (§8 R6: cursors resolve under the caller's visibility).
 */
export async function listNotifications({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: ListNotificationsInput;
}): Promise<{ items: NotificationView[]; nextCursor?: string }> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? await olderThanCursor(ctx.db, notifications, input.cursor, notificationsVisibleTo(ctx)) : undefined;
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(notificationsVisibleTo(ctx), after))
    .orderBy(desc(notifications.seq))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (n) => n.id,
    (kept) => kept.map(toNotificationView),
  );
}
