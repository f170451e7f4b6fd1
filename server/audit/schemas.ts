import { auditActions } from '@/db/schema';
import { z } from 'zod';
import { Id } from '../ids';
import { LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

/** `GET /v1/audit` (docs/product.md §5): filters, newest first, cursor-paginated. */
export const ListAuditInput = z
  .object({
    nodeId: Id.optional(),
    reservationId: Id.optional(),
    action: z.enum(auditActions).optional(),
    since: Timestamp.optional(),
    until: Timestamp.optional(),
    cursor: z.string().optional(),
    limit: LimitNumber.optional(),
  })
  .strict();
export type ListAuditInput = z.infer<typeof ListAuditInput>;
