import type { auditActions, auditVias } from '@/db/schema';

/** The API key that made an event, as its own org sees it (docs/product.md §5 Objects `actorKey`). */
export type AuditActorKey = { id: string; name: string; prefix: string };

/**
 * The audit event object (docs/product.md §5 Objects). Unset optional fields are omitted,
 * never `null` (§5): `nodeId` is absent for org-level events. Which user or system job acted is
 * kept in the database, not shown; `actorOrgId` shows per §2; the API key that acted shows
 * (`actorKey`) to that key's own org only.
 */
export type AuditEventView = {
  id: string;
  at: string;
  action: (typeof auditActions)[number];
  actorOrgId?: string;
  actorKey?: AuditActorKey;
  via: (typeof auditVias)[number];
  nodeId?: string;
  reservationId?: string;
  unitIds: string[];
  reason?: string;
  details: Record<string, unknown>;
};
