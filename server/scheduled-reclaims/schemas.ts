import { z } from 'zod';
import { Id, distinctIds, freeText } from '../ids';
import { LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

/** The reservation a schedule belongs to: REST fills both from the path (`{nodeId}`, `{id}`). */
const ReservationKey = { nodeId: Id, reservationId: Id };

/** `POST …/reservations/{id}/scheduled-reclaims` (docs/product.md §5.6). */
export const CreateReclaimScheduleInput = z
  .object({
    ...ReservationKey,
    unitIds: distinctIds(1024).meta({
      description: "1–1024 distinct unit ids, each in the reservation's reservedUnitIds and in no other pending schedule of it.",
    }),
    at: Timestamp.meta({
      description: "When to reclaim: in the future, at most 30 days ahead, and before the reservation's endsAt (else 422 invalid_schedule_time).",
    }),
    reason: freeText(1000).optional().meta({ description: "Told to the tenants, and recorded in the audit trail and the reclaim's event." }),
  })
  .strict();
export type CreateReclaimScheduleInput = z.infer<typeof CreateReclaimScheduleInput>;

/** One schedule: `…/scheduled-reclaims/{scheduleId}`. */
export const GetReclaimScheduleInput = z.object({ ...ReservationKey, scheduleId: Id }).strict();
export type GetReclaimScheduleInput = z.infer<typeof GetReclaimScheduleInput>;

/** `PATCH …/scheduled-reclaims/{scheduleId}` `{ at }`. */
export const RescheduleReclaimInput = z
  .object({ ...ReservationKey, scheduleId: Id, at: Timestamp.meta({ description: 'The new time; the same rules as on creation.' }) })
  .strict();
export type RescheduleReclaimInput = z.infer<typeof RescheduleReclaimInput>;

/** `DELETE …/scheduled-reclaims/{scheduleId}`: cancels a pending one. */
export const CancelReclaimScheduleInput = GetReclaimScheduleInput;
export type CancelReclaimScheduleInput = z.infer<typeof CancelReclaimScheduleInput>;

/** `GET …/scheduled-reclaims`: newest first, cursor-paginated (docs/product.md §5 Lists). */
export const ListReclaimSchedulesInput = z.object({ ...ReservationKey, cursor: z.string().max(512).optional(), limit: LimitNumber.optional() }).strict();
export type ListReclaimSchedulesInput = z.infer<typeof ListReclaimSchedulesInput>;
