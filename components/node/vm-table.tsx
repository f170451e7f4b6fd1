'use client';

import type { NodeVm } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import { offers } from '../offers';
import { OrgIds } from '../org-names';
import { ReclaimDeadline } from '../reclaim-deadline';
import { Time } from '../time-zone';

const baseColumns: readonly Column<NodeVm>[] = [
  { key: 'id', header: 'VM', cell: (vm) => vm.id, className: 'py-2 pr-4 font-mono' },
  {
    key: 'tier',
    header: 'Tier',
    cell: (vm) => (
      <>
        {vm.tier}
        {vm.reclaimAt && <ReclaimDeadline at={vm.reclaimAt} />}
      </>
    ),
  },
  { key: 'units', header: 'Units', cell: (vm) => vm.unitIds.join(', '), className: 'py-2 pr-4 font-mono' },
  {
    key: 'org',
    header: 'Org',
    className: 'py-2 pr-4 text-ink-3',
    // Another tenant's identity is private (docs/product.md §2): the API leaves orgId out.
    cell: (vm) =>
      vm.orgId ? (
        <OrgIds ids={[vm.orgId]} names={vm.orgNames} />
      ) : (
        <span className="text-xs italic text-ink-4" title="Another tenant’s identity is private">
          another org
        </span>
      ),
  },
  {
    key: 'since',
    header: 'Since',
    headerClassName: 'py-2 font-medium',
    className: 'py-2 text-ink-3',
    cell: (vm) => <Time iso={vm.startedAt} relative />,
  },
];

/** The node page's running VMs the acting org may see, with "Terminate…" where the server offers it. */
export function VmTable({ vms, onTerminate }: { vms: NodeVm[] | undefined; onTerminate: (vm: NodeVm) => void }) {
  const columns: readonly Column<NodeVm>[] = vms?.some((v) => v.actions.includes('terminate'))
    ? [
        ...baseColumns,
        {
          key: 'actions',
          header: <span className="sr-only">Actions</span>,
          cell: (vm) =>
            vm.actions.includes('terminate') && (
              <button
                type="button"
                aria-label={`Terminate ${vm.id}…`}
                onClick={() => onTerminate(vm)}
                {...offers('node.terminate-vm')}
                className="rounded-md border border-danger-line px-2.5 py-1 text-xs font-medium text-danger-ink hover:bg-danger-soft"
              >
                Terminate…
              </button>
            ),
        },
      ]
    : baseColumns;
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby="vms-title" {...offers('node.vm-table')}>
      <h2 id="vms-title" className="mb-3 font-semibold">
        Running VMs you can see
      </h2>
      {!vms ? (
        <p className="text-sm text-ink-4">Loading…</p>
      ) : vms.length === 0 ? (
        <p className="text-sm text-ink-4">No running VM on this node is visible to your org.</p>
      ) : (
        <DataTable columns={columns} rows={vms} rowKey={(vm) => vm.id} rowAttr="vm-id" testId="vm-table" empty="No running VM." />
      )}
    </section>
  );
}
