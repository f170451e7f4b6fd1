import type { notifications, VmReclaimedDetails } from '@/db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * A notification object (docs/product.md §5 Objects): what happened to the acting org's
 * workloads — which VM, on which node and units, when and why, and the reason the reclaimer
 * gave — never the holder or the reservation (§9 h). `readAt` once the org marked it read.
 */
export type NotificationView = { id: string; at: string; kind: 'vm.reclaimed'; message: string; details: VmReclaimedDetails; readAt?: string };

export function toNotificationView(n: NotificationRow): NotificationView {
  return { id: n.id, at: n.at.toISOString(), kind: n.kind, message: n.message, details: n.details, ...(n.readAt ? { readAt: n.readAt.toISOString() } : {}) };
}
