import type { NotificationDetails, NotificationKind, notifications } from '@/db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * A notification object (docs/product.md §5 Objects), by kind: `vm.reclaimed` tells the acting
 * org what happened to its workload — which VM, on which node and units, when and why, and the
 * reason the reclaimer gave — never the holder or the reservation (§9 h);
 * `reservation.needs_review` and `sign_in.lockout` tell the platform org what needs an operator.
 * `readAt` once the org marked it read.
 */
export type NotificationView = {
  [K in NotificationKind]: { id: string; at: string; kind: K; message: string; details: NotificationDetails[K]; readAt?: string };
}[NotificationKind];

export function toNotificationView(n: NotificationRow): NotificationView {
  // The row's details are of its kind: every writer (server/notifications/write.ts, reclaim) pairs them.
  return {
    id: n.id,
    at: n.at.toISOString(),
    kind: n.kind,
    message: n.message,
    details: n.details,
    ...(n.readAt ? { readAt: n.readAt.toISOString() } : {}),
  } as NotificationView;
}
