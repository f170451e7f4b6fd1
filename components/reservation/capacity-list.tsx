'use client';

import Link from 'next/link';
import { nodeHref, reservationHref } from '../links';
import { CAPACITY_DEFAULT_ROLE } from '../queries';
import type { Reservation } from '../trpc-types';
import { PageHeader } from '../ui/page-header';
import { column, PagedTable, type PageResult } from '../ui/paged-table';
import { UrlFilters } from '../ui/url-filters';
import { StatusBadge } from './status-badge';
import { offers } from '../offers';
import { Time } from '../time-zone';

const columns = [
  column<Reservation>('id', 'Reservation', (r) => (
    <Link href={reservationHref(r.nodeId, r.id)} className="font-mono font-medium text-accent-ink hover:underline">
      {r.id}
    </Link>
  )),
  column<Reservation>('node', 'Node', (r) => (
    <Link href={nodeHref(r.nodeId)} className="font-mono text-xs text-accent-ink hover:underline">
      {r.nodeId}
    </Link>
  )),
  column<Reservation>('status', 'Status', (r) => <StatusBadge status={r.status} />),
  column<Reservation>('units', 'Units', (r) => `${r.reservedUnitIds.length} · ${r.reservedUnitIds.join(', ')}`, 'font-mono text-xs'),
  column<Reservation>('released', 'Released', (r) => (r.releasedUnitIds.length ? r.releasedUnitIds.join(', ') : '—'), 'font-mono text-xs'),
  column<Reservation>(
    'period',
    'Period',
    (r) => (
      <>
        <Time iso={r.startsAt} /> → {r.endsAt ? <Time iso={r.endsAt} /> : 'open-ended'}
      </>
    ),
    'text-xs text-ink-3',
  ),
  column<Reservation>('contract', 'Contract', (r) => r.contractRef ?? '—', 'text-xs'),
];

/** How each role of `GET /v1/reservations` reads on this page. */
const roleLabels: Record<string, string> = { audience: 'In the audience (my capacity)', managing: 'Managed by my org', any: 'Any I may see' };

/**
 * "My capacity" (docs/product.md §6): the reservations whose audience holds the acting org, on
 * every node, by node and id, cursor-paged — or, with the URL's `role`, those it manages or
 * every one it may see (§2).
 * Rendered from the page the server read for the URL (`role` and `cursor`).
 * @param roles the roles the API accepts.
 */
export function CapacityList({
  role,
  roles,
  reservations,
  cursor,
}: {
  role: string | undefined;
  roles: readonly string[];
  reservations: PageResult<Reservation>;
  cursor: string | undefined;
}) {
  return (
    <div className="space-y-4">
      <PageHeader title="My capacity" offer={offers('capacity.page')} description="Reservations across the fleet that your org may place workloads on.">
        <UrlFilters
          fields={[{ name: 'role', label: 'Show', kind: 'select', allowAny: false, options: roles.map((r) => ({ value: r, label: roleLabels[r] ?? r })) }]}
          values={{ role: role ?? CAPACITY_DEFAULT_ROLE }}
        />
      </PageHeader>
      <PagedTable
        result={reservations}
        columns={columns}
        rowKey={(r) => `${r.nodeId}/${r.id}`}
        rowAttr="reservation-key"
        testId="capacity-table"
        empty="No reservation lists your org in this role."
        cursor={cursor}
        scope={role ?? CAPACITY_DEFAULT_ROLE}
      />
    </div>
  );
}
