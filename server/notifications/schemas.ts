import { z } from 'zod';
import { Id } from '../ids';
import { Limit, LimitNumber } from '../pagination';

export const ListNotificationsInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNotificationsInput = z.infer<typeof ListNotificationsInput>;

export const ListNotificationsQuery = ListNotificationsInput.extend({ limit: Limit.optional() });

export const MarkNotificationReadInput = z.object({ notificationId: Id }).strict();
export type MarkNotificationReadInput = z.infer<typeof MarkNotificationReadInput>;

/** Body of `POST /v1/notifications/{id}/read`: nothing (an empty body is fine). */
export const MarkNotificationReadBody = z.object({}).strict();
