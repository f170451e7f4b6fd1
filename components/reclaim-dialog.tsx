'use client';

import type { ReclaimResult } from '@/server/reservations/view';
import type { VmView } from '@/server/vms/view';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatDateTime, formatRelative, reclaimLabel } from './format';
import { errorMessage, problemOf } from './problem';
import { useTRPC } from './trpc-provider';

type Preview = { terminate: string[]; skip: string[]; changed: boolean };

/**
 * Reclaim with a preview (docs/product.md §6): runs the dry run, lists every VM to terminate and to skip
 * with its units and start time (from the node's VM list), takes a reason, and confirms with
 * `expectedTerminate`. When the eviction set changed meanwhile, shows the new set and asks again.
 */
export function ReclaimDialog(props: {
  nodeId: string;
  reservationId: string;
  unitIds: string[];
  vms: VmView[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { nodeId, reservationId, unitIds, vms, onClose, onDone } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reason, setReason] = useState('');
  const [result, setResult] = useState<ReclaimResult | null>(null);

  const dryRun = useMutation(trpc.reservations.reclaim.mutationOptions());
  const confirm = useMutation(trpc.reservations.reclaim.mutationOptions());

  const { mutateAsync: previewAsync } = dryRun;
  const runPreview = useCallback(
    async (changed: boolean) => {
      const res = await previewAsync({ nodeId, reservationId, unitIds, dryRun: true });
      setPreview({ terminate: res.wouldTerminate ?? [], skip: res.wouldSkip ?? [], changed });
    },
    [previewAsync, nodeId, reservationId, unitIds],
  );

  // React's dev double-invocation of effects must not run the preview twice.
  const started = useRef(false);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    if (started.current) return;
    started.current = true;
    runPreview(false).catch(() => {});
  }, [runPreview]);

  async function onConfirm() {
    if (!preview) return;
    try {
      const res = await confirm.mutateAsync({ nodeId, reservationId, unitIds, expectedTerminate: preview.terminate, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      setResult(res);
      await queryClient.invalidateQueries();
      onDone();
    } catch (e) {
      if (problemOf(e)?.code === 'eviction_set_changed') {
        await queryClient.invalidateQueries({ queryKey: trpc.vms.listForNode.queryKey({ nodeId }) });
        await runPreview(true).catch(() => {});
      }
    }
  }

  // Remember every VM seen while open, so the summary still shows the ones it terminated.
  const seen = useRef(new Map<string, VmView>());
  for (const v of vms) seen.current.set(v.id, v);
  const vmById = seen.current;
  const busy = dryRun.isPending || confirm.isPending;
  const error = confirm.error && problemOf(confirm.error)?.code !== 'eviction_set_changed' ? confirm.error : dryRun.error;

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="reclaim-title"
      className="m-auto w-[min(44rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-2xl backdrop:bg-slate-900/40"
    >
      <div className="border-b border-slate-200 px-6 py-4">
        <h2 id="reclaim-title" className="text-lg font-semibold">
          Reclaim {unitIds.length} unit{unitIds.length === 1 ? '' : 's'} of {reservationId}
        </h2>
        <p className="mt-1 font-mono text-xs text-slate-500">{unitIds.join(', ')}</p>
      </div>

      <div className="max-h-[60vh] space-y-4 overflow-y-auto px-6 py-4">
        {result ? (
          <div data-testid="reclaim-summary" className="space-y-2">
            <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
              Reclaimed {unitIds.length} unit{unitIds.length === 1 ? '' : 's'}. Terminated {result.terminated?.length ?? 0} spot VM{result.terminated?.length === 1 ? '' : 's'}
              {result.skipped?.length ? `; left ${result.skipped.length} non-spot VM${result.skipped.length === 1 ? '' : 's'} running` : ''}.
            </p>
            <VmList title="Terminated" ids={result.terminated ?? []} vmById={vmById} empty="No VM was terminated." tone="terminate" />
            <VmList title="Left running (not spot)" ids={result.skipped ?? []} vmById={vmById} empty="None." tone="skip" />
          </div>
        ) : !preview ? (
          <p className="text-sm text-slate-600">{dryRun.isPending ? 'Previewing what this reclaim would do…' : ''}</p>
        ) : (
          <>
            {preview.changed && (
              <p role="alert" data-testid="eviction-changed" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
                The spot VMs on these units changed since your preview. Review the new set below and confirm again.
              </p>
            )}
            <VmList title="Spot VMs that will be terminated" ids={preview.terminate} vmById={vmById} empty="No spot VM runs on these units." tone="terminate" testId="preview-terminate" />
            <VmList title="VMs left running (not spot)" ids={preview.skip} vmById={vmById} empty="None." tone="skip" testId="preview-skip" />
            <label className="block text-sm font-medium text-slate-700">
              Reason <span className="font-normal text-slate-500">(recorded in the audit trail)</span>
              <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={2} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500" placeholder="e.g. the audience needs the capacity back" />
            </label>
          </>
        )}
        {error && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {errorMessage(error)}
          </p>
        )}
      </div>

      <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-6 py-3">
        <button type="button" onClick={() => dialog.current?.close()} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100">
          {result ? 'Close' : 'Cancel'}
        </button>
        {!result && (
          <button
            type="button"
            disabled={!preview || busy}
            onClick={onConfirm}
            className="rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {preview ? reclaimLabel(preview.terminate.length, unitIds.length) : 'Previewing…'}
          </button>
        )}
      </div>
    </dialog>
  );
}

function VmList(props: { title: string; ids: string[]; vmById: Map<string, VmView>; empty: string; tone: 'terminate' | 'skip'; testId?: string }) {
  const { title, ids, vmById, empty, tone, testId } = props;
  return (
    <section data-testid={testId}>
      <h3 className="mb-1 text-sm font-semibold text-slate-800">
        {title} <span className="font-normal text-slate-500">({ids.length})</span>
      </h3>
      {ids.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
          {ids.map((id) => {
            const vm = vmById.get(id);
            return (
              <li key={id} data-vm-id={id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className={`font-mono ${tone === 'terminate' ? 'text-red-700' : 'text-slate-700'}`}>{id}</span>
                <span className="text-slate-600">{vm ? vm.unitIds.join(', ') : '—'}</span>
                <span className="text-xs text-slate-500" title={vm ? formatDateTime(vm.startedAt) : undefined}>
                  {vm ? `started ${formatRelative(vm.startedAt)}` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
