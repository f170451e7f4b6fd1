import { z } from 'zod';
import { Id, distinctIds, freeText } from '../ids';
import { ExpectedTopologyGen, ListNodesInput } from '../nodes/schemas';
import { LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';
import { reservationRoles } from './roles';

/** The reservation a verb acts on: REST fills both from the path (`{nodeId}`, `{id}`; server/reservations/operations.ts). */
const ReservationKey = { nodeId: Id, reservationId: Id };

/** A reason recorded in the audit trail only. */
const AuditReason = freeText(1000).optional().meta({ description: 'Recorded in the audit trail.' });

/** Cancel: `{ reason? }` (docs/product.md §5). */
export const CancelReservationInput = z.object({ ...ReservationKey, reason: AuditReason }).strict();
export type CancelReservationInput = z.infer<typeof CancelReservationInput>;

export const OrgIds = (what: string, min: number) =>
  z
    .array(Id)
    .min(min, `must name at least ${min} org`)
    .max(256, 'must name at most 256 orgs')
    .refine((ids) => new Set(ids).size === ids.length, `${what} must not repeat an org`)
    .meta({ uniqueItems: true });

/** `POST /v1/nodes/{nodeId}/reservations` (docs/product.md §5). */
export const CreateReservationInput = z
  .object({
    nodeId: Id,
    id: Id.optional().meta({ description: 'Chosen by the server when absent.' }),
    reservedUnitIds: distinctIds(1024),
    allowedOrgIds: OrgIds('allowedOrgIds', 1),
    managingOrgIds: OrgIds('managingOrgIds', 0).optional(),
    contractRef: freeText(200).optional(),
    startsAt: Timestamp.optional().meta({ description: 'Defaults to now; at most 5 minutes in the past (else 422 start_in_past).' }),
    endsAt: Timestamp.optional().meta({
      description: 'Absent = open-ended until cancelled. Must be after `startsAt` (or now, when `startsAt` is absent) and in the future, else 400.',
    }),
    reason: freeText(1000).optional().meta({ description: "Recorded in the audit trail, and kept as the reservation's reason." }),
  })
  .strict()
  .superRefine(periodRule);
export type CreateReservationInput = z.infer<typeof CreateReservationInput>;

/** `endsAt` after `startsAt` when both are given (docs/product.md §5). */
export function periodRule(b: { startsAt?: Date; endsAt?: Date }, ctx: z.RefinementCtx) {
  if (b.startsAt && b.endsAt && b.endsAt <= b.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
}

/** `PATCH …/reservations/{id}`: the fields that may change (docs/product.md §5; §5.4 shrink). */
export const UpdateReservationInput = z
  .object({
    ...ReservationKey,
    allowedOrgIds: OrgIds('allowedOrgIds', 1).optional(),
    managingOrgIds: OrgIds('managingOrgIds', 0).optional(),
    endsAt: Timestamp.nullable()
      .optional()
      .meta({ description: "null makes the reservation open-ended. A time must be after the reservation's `startsAt` and in the future, else 400." }),
    contractRef: freeText(200).nullable().optional().meta({ description: 'null clears it.' }),
    reservedUnitIds: distinctIds(1024).optional().meta({ description: 'May lose units, never gain them; a removed unit also leaves releasedUnitIds.' }),
    reason: freeText(1000).optional().meta({ description: "Recorded in the audit trail, and kept as the reservation's reason." }),
  })
  .strict();
export type UpdateReservationInput = z.infer<typeof UpdateReservationInput>;

/** `POST …/release` (docs/product.md §5.2). */
export const ReleaseInput = z
  .object({
    ...ReservationKey,
    unitIds: distinctIds(1024).meta({
      description: "1–1024 distinct unit ids, each in the reservation's reservedUnitIds and not running a VM.",
    }),
    reason: AuditReason,
    dryRun: z.boolean().optional().meta({ description: 'Return the reservation as it would look after the release, and write nothing.' }),
  })
  .strict();
export type ReleaseInput = z.infer<typeof ReleaseInput>;

/** `POST /v1/nodes/{nodeId}/reservations/{id}/reclaim` (docs/product.md §5.1a): the path's node and reservation, and the body. */
export const ReclaimInput = z
  .object({
    ...ReservationKey,
    unitIds: distinctIds(1024).meta({
      description: "1–1024 distinct unit ids, each in the reservation's reservedUnitIds (else 422 unit_not_in_reservation).",
    }),
    // The published contract's words (docs/product.md §5.1a).
    dryRun: z.boolean().optional().meta({
      description: 'Report which spot workloads would be terminated, and change nothing: no terminations, and the capacity boundary stays where it is.',
    }),
    reason: AuditReason,
    // Distinct like every other id list (docs/product.md §9 d): a set named twice is a client's bug.
    expectedTerminate: z
      .array(Id)
      .max(1024, 'must name at most 1024 VM ids')
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a VM id')
      .optional()
      .meta({
        description:
          'Extension of this API, not part of the published reclaim contract: the VM ids the caller previewed (e.g. the `wouldTerminate` of a dry run). If the spot VMs this reclaim would terminate differ from them as a set, the reclaim is refused with 409 eviction_set_changed (carrying the current set in `terminate`) and nothing changes.',
        'x-extension': true,
        uniqueItems: true,
      }),
  })
  .strict();
export type ReclaimInput = z.infer<typeof ReclaimInput>;

/** `POST …/reclaim-plan` (docs/product.md §5.5): how many GPUs, from which candidates, by which policy. */
export const ReclaimPlanInput = z
  .object({
    ...ReservationKey,
    count: z
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(1024, 'must be at most 1024')
      .meta({ description: 'How many GPUs to take back: 1–1024.' }),
    unitIds: distinctIds(1024).optional().meta({
      description:
        "The candidate units, each in the reservation's reservedUnitIds (else 422 unit_not_in_reservation); default: all of them. The plan takes released ones only.",
    }),
    policy: z
      .enum(['fewest-evictions'])
      .optional()
      .meta({ description: '`fewest-evictions` (the default and only one): the fewest spot VMs, then the least running work lost, then the youngest VMs.' }),
  })
  .strict();
export type ReclaimPlanInput = z.infer<typeof ReclaimPlanInput>;

/** `POST …/reaffirm` (docs/product.md §5.4): a reason, and the node generation the caller reviewed. */
export const ReaffirmInput = z.object({ ...ReservationKey, reason: AuditReason, expectedTopologyGen: ExpectedTopologyGen }).strict();
export type ReaffirmInput = z.infer<typeof ReaffirmInput>;

export const GetReservationInput = z.object(ReservationKey).strict();
export type GetReservationInput = z.infer<typeof GetReservationInput>;

export const ListNodeReservationsInput = z.object({ nodeId: Id, limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNodeReservationsInput = z.infer<typeof ListNodeReservationsInput>;

/** `GET /v1/reservations` (docs/product.md §5): the caller's reservations on every node, by (nodeId, id). */
export const ListReservationsInput = z
  .object({
    role: z.enum(reservationRoles).optional().meta({
      description:
        '`audience`: those whose allowedOrgIds hold the acting org; `managing`: those whose managingOrgIds hold it; `any` (default): every reservation the caller may see.',
    }),
    since: Timestamp.optional().meta({ description: 'Only reservations whose period [startsAt, endsAt) ends after this (an open-ended one never ends).' }),
    until: Timestamp.optional().meta({ description: 'Only reservations starting before this (exclusive).' }),
    limit: LimitNumber.optional(),
    cursor: z.string().optional(),
  })
  .strict();
export type ListReservationsInput = z.infer<typeof ListReservationsInput>;

/** The longest window the reservation calendar shows (docs/product.md §5.8 "Fleet calendar"), as an export's. */
export const MAX_CALENDAR_DAYS = 31;
/** The calendar's window when `to` is not given: a week from `from`. */
export const DEFAULT_CALENDAR_DAYS = 7;

/**
 * `GET /v1/reservation-calendar` and `reservations.calendar` (docs/product.md §5.8): the fleet
 * list's own query (filters, sort, cursor and limit over nodes) and the window `[from, to)`,
 * by default the week from now. The verb checks the window (`from` before `to`, at most 31 days): REST extends this schema
 * with its query-string forms, which zod refuses on a refined object.
 */
export const ReservationCalendarInput = ListNodesInput.extend({
  from: Timestamp.optional().meta({ description: "The window's start (inclusive), ISO 8601 UTC; default now." }),
  to: Timestamp.optional().meta({
    description: `The window's end (exclusive): after \`from\`, at most ${MAX_CALENDAR_DAYS} days later; default ${DEFAULT_CALENDAR_DAYS} days after \`from\`.`,
  }),
}).strict();
export type ReservationCalendarInput = z.infer<typeof ReservationCalendarInput>;
