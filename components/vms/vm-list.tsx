'use client';

import Link from 'next/link';
import { OrgOrAnother } from '../another-org';
import { nodeHref, reservationHref, vmHref } from '../links';
import { filtersKey, type VmFilters } from '../queries';
import type { RouterOutputs } from '../trpc-types';
import { PageHeader } from '../ui/page-header';
import { column, PagedTable, type PageResult } from '../ui/paged-table';
import { UrlFilters, type FilterField } from '../ui/url-filters';
import { offers } from '../offers';
import { vmStatusLabel } from '../vm-status';
import { ReclaimDeadline } from '../reclaim-deadline';
import { Time } from '../time-zone';

/** A VM of the list, with its org's name where the caller sees its org. */
type VmView = RouterOutputs['vms']['list']['items'][number];

const columns = [
  column<VmView>('id', 'VM', (vm) => (
    <Link href={vmHref(vm.id)} className="font-mono font-medium text-accent-ink hover:underline">
      {vm.id}
    </Link>
  )),
  column<VmView>('node', 'Node', (vm) => (
    <Link href={nodeHref(vm.nodeId)} className="font-mono text-xs text-accent-ink hover:underline">
      {vm.nodeId}
    </Link>
  )),
  column<VmView>('tier', 'Tier', (vm) => vm.tier),
  column<VmView>('status', 'Status', (vm) => (
    <>
      <span data-testid="vm-status">{vmStatusLabel(vm)}</span>
      {vm.reclaimAt && <ReclaimDeadline at={vm.reclaimAt} />}
    </>
  )),
  column<VmView>('units', 'Units', (vm) => vm.unitIds.join(', '), 'font-mono text-xs'),
  // Another tenant's identity is private (docs/product.md §2): the API leaves orgId out.
  column<VmView>('org', 'Org', (vm) => <OrgOrAnother orgId={vm.orgId} names={vm.orgNames} why="Another tenant’s identity is private" />, 'text-xs'),
  column<VmView>('reservation', 'Reservation', (vm) =>
    vm.reservationId ? (
      <Link href={reservationHref(vm.nodeId, vm.reservationId)} className="font-mono text-xs text-accent-ink hover:underline">
        {vm.reservationId}
      </Link>
    ) : (
      '—'
    ),
  ),
  column<VmView>('started', 'Started', (vm) => <Time iso={vm.startedAt} />, 'whitespace-nowrap text-ink-3'),
  column<VmView>('ended', 'Ended', (vm) => (vm.terminatedAt ? <Time iso={vm.terminatedAt} /> : '—'), 'whitespace-nowrap text-ink-3'),
];

/**
 * The VMs page (docs/product.md §6): the VMs the acting org may see (§2 "see a VM's id and
 * units"), by id, filtered by the URL's node, status and tier, cursor-paged; each links to its page.
 * Rendered from the page the server read for the URL (filters and `cursor`).
 * @param statuses, tiers the values the API accepts, for the filters.
 */
export function VmList({
  filters,
  statuses,
  tiers,
  vms,
  cursor,
}: {
  filters: VmFilters;
  statuses: readonly string[];
  tiers: readonly string[];
  vms: PageResult<VmView>;
  cursor: string | undefined;
}) {
  const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));
  const fields: FilterField[] = [
    { name: 'nodeId', label: 'Node', kind: 'text', placeholder: 'e.g. acme-h100-01' },
    { name: 'status', label: 'Status', kind: 'select', options: options(statuses) },
    { name: 'tier', label: 'Tier', kind: 'select', options: options(tiers) },
  ];
  return (
    <div className="space-y-4">
      <PageHeader title="VMs" offer={offers('vms.page')} description="Every workload your org may see, running or ended." />
      <UrlFilters fields={fields} values={filters} errors={vms.errors} />
      <PagedTable
        result={vms}
        columns={columns}
        rowKey={(vm) => vm.id}
        rowAttr="vm-id"
        testId="vm-list"
        empty="No VM matches these filters."
        cursor={cursor}
        scope={filtersKey(filters)}
      />
    </div>
  );
}
