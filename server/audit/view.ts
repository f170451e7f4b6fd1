import type { auditActions, auditVias } from '@/db/schema';

/**
 * The audit event object (docs/product.md §5 Objects). Unset optional fields are omitted,
 * never `null` (§5): `nodeId` is absent for org-level events. Which user, key or system job
 * acted is kept in the database, not shown; `actorOrgId` shows per §2.
 */
export type AuditEventView = {
  id: string;
  at: string;
  action: (typeof auditActions)[number];
  actorOrgId?: string;
  via: (typeof auditVias)[number];
  nodeId?: string;
  reservationId?: string;
  unitIds: string[];
  reason?: string;
  details: Record<string, unknown>;
};
