import type { auditActions } from '@/db/schema';

/** The audit event object (docs/product.md §5 Objects). */
export type AuditEventView = {
  id: string;
  at: string;
  action: (typeof auditActions)[number];
  actorOrgId?: string;
  via: 'console' | 'api';
  nodeId: string;
  reservationId?: string;
  unitIds: string[];
  reason?: string;
  details: Record<string, unknown>;
};
