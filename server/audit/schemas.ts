import { auditActions } from '@/db/schema';
import { z } from 'zod';
import { Id } from '../ids';
import { Limit, LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

export const AuditFilters = z.object({
  nodeId: Id.optional(),
  reservationId: Id.optional(),
  action: z.enum(auditActions).optional(),
  since: Timestamp.optional(),
  until: Timestamp.optional(),
  cursor: z.string().optional(),
});

export const ListAuditInput = AuditFilters.extend({ limit: LimitNumber.optional() }).strict();
export type ListAuditInput = z.infer<typeof ListAuditInput>;

/** Query of `GET /v1/audit`. */
export const ListAuditQuery = AuditFilters.extend({ limit: Limit.optional() }).strict();
