'use client';

import { Id } from './unit-ids';
import Link from 'next/link';
import { Suspense, useState, type ReactNode } from 'react';
import { lazyWithTrpc } from './live/lazy-with-trpc';
import type { Fetched, RouterOutputs } from './trpc-types';
import { offers } from './offers';
import { OrgIds } from './org-names';
import { vmStatusLabel } from './vm-status';
import { ReclaimDeadline } from './reclaim-deadline';
import { Time } from './time-zone';

// Loads with its data layer when opened (components/live/lazy-with-trpc.tsx), never with the page.
const TerminateVmDialog = lazyWithTrpc(() => import('./vm-dialogs').then((m) => m.TerminateVmDialog));

type VmDetailData = RouterOutputs['vms']['detail'];

const reasons: Record<NonNullable<VmDetailData['vm']['terminationReason']>, string> = {
  reclaimed: 'Reclaimed: the capacity holder took its spot units back',
  terminated: 'Terminated by its org or a platform operator',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-4 py-2">
      <dt className="text-ink-4">{label}</dt>
      <dd data-field={label}>{children}</dd>
    </div>
  );
}

/**
 * The VM page (docs/product.md §6): one VM as the API shows it to the caller — its node (a
 * link), units, tier, status, start, and for an ended VM when and why it ended, with the reason
 * its reclaim gave — and Terminate… where the node page offers it (the server says where:
 * `actions`). Only what the caller may see: the org shows only to the operator and the VM's own
 * org (§2). Rendered from what the server page read; a termination renders it again.
 */
export function VmDetail({ detail }: { detail: Fetched<VmDetailData> }) {
  const [terminating, setTerminating] = useState(false);
  if (!detail.data) return <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{detail.error}</p>;
  const { vm: v, actions, reclaimReason, orgNames } = detail.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold" {...offers('vm.page')}>
          <Id id={v.id} />
        </h1>
        <span
          data-testid="vm-status"
          className={`rounded px-2 py-0.5 text-xs font-medium ${v.status === 'running' ? 'bg-ok-soft-2 text-ok-ink' : 'bg-surface-4 text-ink-2'}`}
        >
          {vmStatusLabel(v)}
        </span>
        {actions.includes('terminate') && (
          <button
            type="button"
            onClick={() => setTerminating(true)}
            className="ml-auto rounded-md border border-danger-line bg-surface px-3 py-1.5 text-sm font-medium text-danger-ink hover:bg-danger-soft"
          >
            Terminate…
          </button>
        )}
      </div>
      <dl className="divide-y divide-line-soft rounded-xl border border-line bg-surface px-5 text-sm shadow-sm">
        <Field label="Node">
          <Link href={`/nodes/${encodeURIComponent(v.nodeId)}`} className="font-mono text-accent-ink hover:underline">
            {v.nodeId}
          </Link>
        </Field>
        <Field label="Units">
          <span className="font-mono">{v.unitIds.join(', ')}</span>
        </Field>
        <Field label="Tier">{v.tier}</Field>
        {v.orgId && (
          <Field label="Org">
            <OrgIds ids={[v.orgId]} names={orgNames} />
          </Field>
        )}
        {v.reservationId && (
          <Field label="Reservation">
            <span className="font-mono">{v.reservationId}</span>
          </Field>
        )}
        <Field label="Started">
          <Time iso={v.startedAt} />
        </Field>
        {v.reclaimAt && (
          <Field label="Reclaim at">
            <ReclaimDeadline at={v.reclaimAt} />
            <span className="block text-xs text-ink-4">
              {v.tier === 'spot'
                ? 'A reclaim scheduled by the capacity holder takes its units back then, terminating it.'
                : 'A reclaim is scheduled on its units then; it is not spot, so the reclaim leaves it running.'}
            </span>
          </Field>
        )}
        {v.terminatedAt && (
          <Field label="Terminated">
            <Time iso={v.terminatedAt} />
          </Field>
        )}
        {v.terminationReason && <Field label="Why it ended">{reasons[v.terminationReason]}</Field>}
        {v.terminationReason === 'reclaimed' && <Field label="Reason given">{reclaimReason ? `“${reclaimReason}”` : 'No reason given'}</Field>}
      </dl>
      <Suspense fallback={null}>{terminating && <TerminateVmDialog vm={v} onClose={() => setTerminating(false)} />}</Suspense>
    </div>
  );
}
