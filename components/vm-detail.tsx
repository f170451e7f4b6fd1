import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatDateTime } from './format';
import type { Fetched, VmView } from './trpc-types';
import { offers } from './offers';

const reasons: Record<NonNullable<VmView['terminationReason']>, string> = {
  reclaimed: 'Reclaimed: the capacity holder took its spot units back',
  terminated: 'Terminated by its org or a platform operator',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-4 py-2">
      <dt className="text-slate-500">{label}</dt>
      <dd data-field={label}>{children}</dd>
    </div>
  );
}

/**
 * The VM page (docs/product.md §6): one VM as the API shows it to the caller — its node (a
 * link), units, tier, status, start, and for an ended VM when and why it ended. Only what the
 * caller may see: the org shows only to the operator and the VM's own org (§2). Rendered from
 * what the server page read.
 */
export function VmDetail({ vm }: { vm: Fetched<VmView> }) {
  if (!vm.data) return <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">{vm.error}</p>;
  const v = vm.data;
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold" {...offers('vm.page')}>
          {v.id}
        </h1>
        <span
          data-testid="vm-status"
          className={`rounded px-2 py-0.5 text-xs font-medium ${v.status === 'running' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}`}
        >
          {v.status}
        </span>
      </div>
      <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-5 text-sm shadow-sm">
        <Field label="Node">
          <Link href={`/nodes/${encodeURIComponent(v.nodeId)}`} className="font-mono text-indigo-700 hover:underline">
            {v.nodeId}
          </Link>
        </Field>
        <Field label="Units">
          <span className="font-mono">{v.unitIds.join(', ')}</span>
        </Field>
        <Field label="Tier">{v.tier}</Field>
        {v.orgId && (
          <Field label="Org">
            <span className="font-mono">{v.orgId}</span>
          </Field>
        )}
        {v.reservationId && (
          <Field label="Reservation">
            <span className="font-mono">{v.reservationId}</span>
          </Field>
        )}
        <Field label="Started">{formatDateTime(v.startedAt)}</Field>
        {v.terminatedAt && <Field label="Terminated">{formatDateTime(v.terminatedAt)}</Field>}
        {v.terminationReason && <Field label="Why it ended">{reasons[v.terminationReason]}</Field>}
      </dl>
    </div>
  );
}
