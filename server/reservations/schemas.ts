import { z } from 'zod';
import { Id, distinctIds, freeText } from '../ids';
import { Limit, LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

/** Body of cancel and re-affirm: `{ reason? }` (docs/product.md §5). */
export const ReasonBody = z.object({ reason: freeText(1000).optional() }).strict();

export const CancelReservationInput = ReasonBody.extend({ nodeId: Id, reservationId: Id });
export type CancelReservationInput = z.infer<typeof CancelReservationInput>;

export const OrgIds = (what: string, min: number) =>
  z
    .array(Id)
    .min(min, `must name at least ${min} org`)
    .max(256, 'must name at most 256 orgs')
    .refine((ids) => new Set(ids).size === ids.length, `${what} must not repeat an org`);

/** Body of `POST /v1/nodes/{nodeId}/reservations` (docs/product.md §5). */
export const CreateReservationFields = z
  .object({
    id: Id.optional(),
    reservedUnitIds: distinctIds(1024),
    allowedOrgIds: OrgIds('allowedOrgIds', 1),
    managingOrgIds: OrgIds('managingOrgIds', 0).optional(),
    contractRef: freeText(200).optional(),
    startsAt: Timestamp.optional(),
    endsAt: Timestamp.optional(),
    reason: freeText(1000).optional(),
  })
  .strict();

export function periodRule(b: { startsAt?: Date; endsAt?: Date }, ctx: z.RefinementCtx) {
  if (b.startsAt && b.endsAt && b.endsAt <= b.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
}

export const CreateReservationBody = CreateReservationFields.superRefine(periodRule);

export const CreateReservationInput = CreateReservationFields.extend({ nodeId: Id }).superRefine(periodRule);
export type CreateReservationInput = z.infer<typeof CreateReservationInput>;

export const OrgIdList = z.array(Id).max(256).refine((ids) => new Set(ids).size === ids.length, 'must not repeat an org');

/** Body of `PATCH …/reservations/{id}`: the fields that may change (docs/product.md §5; §5.4 shrink). */
export const UpdateReservationBody = z
  .object({
    allowedOrgIds: OrgIdList.refine((ids) => ids.length > 0, 'must name at least one org').optional(),
    managingOrgIds: OrgIdList.optional(),
    /** null makes the reservation open-ended. */
    endsAt: Timestamp.nullable().optional(),
    /** null clears it. */
    contractRef: freeText(200).nullable().optional(),
    /** May lose units, never gain them. */
    reservedUnitIds: distinctIds(1024).optional(),
    reason: freeText(1000).optional(),
  })
  .strict();

export const UpdateReservationInput = UpdateReservationBody.extend({ nodeId: Id, reservationId: Id });
export type UpdateReservationInput = z.infer<typeof UpdateReservationInput>;

/** Body of `POST …/release` (docs/product.md §5.2). */
export const ReleaseBody = z.object({ unitIds: distinctIds(1024), reason: freeText(1000).optional(), dryRun: z.boolean().optional() }).strict();

export const ReleaseInput = ReleaseBody.extend({ nodeId: Id, reservationId: Id });
export type ReleaseInput = z.infer<typeof ReleaseInput>;

/** The request body of `POST /v1/nodes/{nodeId}/reservations/{id}/reclaim` (docs/product.md §5.1a). */
export const ReclaimBody = z
  .object({
    unitIds: distinctIds(1024),
    dryRun: z.boolean().optional(),
    reason: freeText(1000).optional(),
    expectedTerminate: z.array(Id).max(1024, 'must name at most 1024 VM ids').optional(),
  })
  .strict();
export type ReclaimBody = z.infer<typeof ReclaimBody>;

/** The verb's input: the body plus the path's node and reservation ids. */
export const ReclaimInput = ReclaimBody.extend({ nodeId: Id, reservationId: Id });
export type ReclaimInput = z.infer<typeof ReclaimInput>;

export const ReaffirmInput = ReasonBody.extend({ nodeId: Id, reservationId: Id });
export type ReaffirmInput = z.infer<typeof ReaffirmInput>;

export const GetReservationInput = z.object({ nodeId: Id, reservationId: Id });
export type GetReservationInput = z.infer<typeof GetReservationInput>;

export const ListNodeReservationsInput = z.object({ nodeId: Id, limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNodeReservationsInput = z.infer<typeof ListNodeReservationsInput>;

/** Query of `GET /v1/nodes/{nodeId}/reservations`. */
export const ListNodeReservationsQuery = z.object({ limit: Limit.optional(), cursor: z.string().optional() }).strict();
