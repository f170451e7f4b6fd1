'use client';

import { filtersKey, type AuditFilters } from '../queries';
import type { AuditEvent } from '../trpc-types';
import { PageHeader } from '../ui/page-header';
import { PagedTable, type PageResult } from '../ui/paged-table';
import { UrlFilters, type FilterField } from '../ui/url-filters';
import { auditColumns } from './audit-columns';
import { offers } from '../offers';

/**
 * The audit trail page (docs/product.md §6): the events the acting org may see (§2, always a
 * filtered list), newest first, filtered by the URL's node, reservation, action and time range
 * (`since` inclusive; `until` exclusive in the API, the console taking in the whole minute typed), cursor-paged; each event expands to its details.
 * Rendered from the page the server read for the URL (filters and `cursor`).
 * @param actions the audit actions the API knows, for the action filter.
 */
export function AuditTrail({
  filters,
  actions,
  events,
  cursor,
}: {
  filters: AuditFilters;
  actions: readonly string[];
  events: PageResult<AuditEvent>;
  cursor: string | undefined;
}) {
  const fields: FilterField[] = [
    { name: 'nodeId', label: 'Node', kind: 'text', placeholder: 'e.g. acme-h100-01' },
    { name: 'reservationId', label: 'Reservation', kind: 'text', placeholder: 'e.g. res-nimbus-01' },
    { name: 'action', label: 'Action', kind: 'select', options: actions.map((a) => ({ value: a, label: a })) },
    { name: 'since', label: 'Since', kind: 'datetime' },
    { name: 'until', label: 'Until', kind: 'datetime', end: true },
  ];
  return (
    <div className="space-y-4">
      <PageHeader title="Audit trail" offer={offers('audit.page')} description="What happened, newest first: every event your org may see." />
      <UrlFilters fields={fields} values={filters} errors={events.errors} />
      <PagedTable
        result={events}
        columns={auditColumns}
        rowKey={(e) => e.id}
        rowAttr="event-id"
        testId="audit-table"
        empty="No event matches these filters."
        cursor={cursor}
        scope={filtersKey(filters)}
      />
    </div>
  );
}
