import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What a `vm.reclaimed` notification says (docs/product.md §5 Objects "Notification"): which VM
 * ended, on which node and units, when and why — never the holder or the reservation (§9 h).
 */
export type VmReclaimedDetails = {
  vmId: string;
  nodeId: string;
  unitIds: string[];
  terminationReason: 'reclaimed';
  terminatedAt: string;
  reason?: string;
};

/** What changed about a scheduled reclaim, as a `vm.reclaim_scheduled` notification tells it. */
export const reclaimNoticeChanges = ['scheduled', 'rescheduled', 'cancelled', 'dropped', 'lapsed'] as const;
export type ReclaimNoticeChange = (typeof reclaimNoticeChanges)[number];

/**
 * What a `vm.reclaim_scheduled` notification says (docs/product.md §5.6): a spot VM's units are
 * to be reclaimed at `reclaimAt` (`notBefore`: nothing happens to it before then) — or, after a
 * cancel, a drop or a lapse, no longer are. Never the holder, the reservation or the schedule
 * (§9 h): what runs where, and when.
 */
export type VmReclaimScheduledDetails = {
  vmId: string;
  nodeId: string;
  unitIds: string[];
  change: ReclaimNoticeChange;
  /** When the reclaim is (or, once cancelled, dropped or lapsed, was) to run. */
  reclaimAt: string;
  notBefore: string;
  /** A reschedule's earlier time. */
  previousAt?: string;
  reason?: string;
};

/**
 * What a `reservation.needs_review` notification to the platform org says (docs/product.md §5
 * Objects "Notification"): which reservation a topology change put in needs-review, on which
 * node, from which generation to which — the operator re-affirms it.
 */
export type ReservationNeedsReviewDetails = {
  nodeId: string;
  reservationId: string;
  /** The generation the reservation was written against. */
  fromGen: number;
  /** The node's generation after the change. */
  topologyGen: number;
};

/**
 * What a `sign_in.lockout` notification to the platform org says: the known account (or one of
 * its devices) locked out, as its `sign_in.lockout` audit event records it (§9.3).
 */
export type SignInLockoutDetails = {
  scope: 'account' | 'device';
  email: string;
  userId: string;
  deviceId?: string;
  failures: number;
  windowMinutes: number;
  lockedUntil: string;
};

/**
 * What a `webhook.disabled` notification says (docs/product.md §5.7): which of the org's
 * endpoints stopped after 24 h of failed deliveries, since when, and the last failure.
 */
export type WebhookDisabledDetails = { webhookId: string; url: string; failingSince: string; lastError?: string };

export const notificationKinds = ['vm.reclaimed', 'vm.reclaim_scheduled', 'reservation.needs_review', 'sign_in.lockout', 'webhook.disabled'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Each kind's details (the column holds one of them, by `kind`). */
export type NotificationDetails = {
  'vm.reclaimed': VmReclaimedDetails;
  'vm.reclaim_scheduled': VmReclaimScheduledDetails;
  'reservation.needs_review': ReservationNeedsReviewDetails;
  'sign_in.lockout': SignInLockoutDetails;
  'webhook.disabled': WebhookDisabledDetails;
};

/** Messages to one org, e.g. "your spot VM was terminated by a reclaim". */
export const notifications = pgTable(
  'notifications',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    // No foreign key to orgs: every writer takes the org from a row that has one (a VM's org, the
    // platform, an endpoint's org), orgs are never deleted, and the key's check locked the org's
    // row FOR KEY SHARE once per notification — a reclaim's four on two tenants' rows, shared by
    // every concurrent reclaim as MultiXacts (docs/performance.md, "Fewer rows a reclaim writes").
    orgId: text('org_id').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<NotificationDetails[NotificationKind]>().notNull(),
    /** When the org marked it read (the first time); null while unread. */
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('notifications_org_idx').on(t.orgId, t.seq)],
);
