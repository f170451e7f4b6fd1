import { z } from 'zod';
import { Id } from '../ids';
import { LimitNumber } from '../pagination';

export const ListNotificationsInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNotificationsInput = z.infer<typeof ListNotificationsInput>;

export const MarkNotificationReadInput = z.object({ notificationId: Id }).strict();
export type MarkNotificationReadInput = z.infer<typeof MarkNotificationReadInput>;
