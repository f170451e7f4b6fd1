import { z } from 'zod';
import { Limit, LimitNumber } from '../pagination';

export const ListNotificationsInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListNotificationsInput = z.infer<typeof ListNotificationsInput>;

export const ListNotificationsQuery = ListNotificationsInput.extend({ limit: Limit.optional() });
