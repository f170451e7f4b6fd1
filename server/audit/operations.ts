/**
 * The `audit` router's operations: the audit trail (docs/product.md §5) and the acting org's
 * notifications (server/notifications/operations.ts, which this router also serves: the console
 * reads both from one place).
 */
import { AuditEventPage } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { pageWithoutOrgNames } from '../orgs/internal';
import { notificationOperations } from '../notifications/operations';
import { listAuditEvents } from './list';
import { ListAuditInput } from './schemas';

export const auditOperations = {
  list: operation({
    verb: listAuditEvents,
    input: ListAuditInput,
    kind: 'query',
    scope: 'read',
    console: 'audit.page',
    rest: {
      method: 'GET',
      path: '/v1/audit',
      operationId: 'listAuditEvents',
      tag: 'Audit',
      summary: 'List audit events',
      description: 'The audit events the caller may see, newest first, filterable by node, reservation, action and time; cursor-paginated. Never 403.',
      response: AuditEventPage,
      responseDescription: 'A page of audit events.',
      errors: [],
      // The verb names each event's actor where it shows, for the console (docs/product.md §9.1 q); REST answers events.
      answer: pageWithoutOrgNames,
      export: {
        name: 'audit',
        window: 'events whose `at` is in [since, until)',
        columns: [
          { name: 'id', value: (e) => e.id },
          { name: 'at', value: (e) => e.at },
          { name: 'action', value: (e) => e.action },
          { name: 'actorOrgId', value: (e) => e.actorOrgId },
          { name: 'actorKeyId', value: (e) => e.actorKey?.id },
          { name: 'actorKeyName', value: (e) => e.actorKey?.name },
          { name: 'actorKeyPrefix', value: (e) => e.actorKey?.prefix },
          { name: 'via', value: (e) => e.via },
          { name: 'nodeId', value: (e) => e.nodeId },
          { name: 'reservationId', value: (e) => e.reservationId },
          { name: 'unitIds', value: (e) => e.unitIds },
          { name: 'reason', value: (e) => e.reason },
          { name: 'details', value: (e) => e.details },
        ],
      },
    },
  }),
  ...notificationOperations,
} satisfies OperationGroup;
