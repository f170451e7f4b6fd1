
/** A notification object: what happened to the acting org's workloads. */
export type NotificationView = { id: string; at: string; kind: 'vm.reclaimed'; message: string; details: Record<string, unknown> };
