'use client';

import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { formatDateTime, formatRelative, reclaimLabel } from './format';
import { problemOf } from './problem';
import { useRefreshPage } from './live/use-refresh-page';
import { useTRPC } from './trpc-provider';
import type { VmView } from './trpc-types';
import { PreviewDialog } from './ui/preview-dialog';

type Preview = { terminate: string[]; skip: string[] };

/**
 * Reclaim with a preview (docs/product.md §6): the dry run lists every VM to terminate and to
 * skip, with its units and start time (from the node's VM list); a reason; confirm sends
 * `expectedTerminate`, and a changed eviction set (409 eviction_set_changed) is previewed
 * again and asked again.
 */
export function ReclaimDialog(props: { nodeId: string; reservationId: string; unitIds: string[]; vms: VmView[]; onClose: () => void; onDone: () => void }) {
  const { nodeId, reservationId, unitIds, vms, onClose, onDone } = props;
  const trpc = useTRPC();
  const refreshPage = useRefreshPage();
  const [reason, setReason] = useState('');
  const { mutateAsync: reclaim } = useMutation(trpc.reservations.reclaim.mutationOptions());

  const preview = useCallback(async (): Promise<Preview> => {
    const res = await reclaim({ nodeId, reservationId, unitIds, dryRun: true });
    return { terminate: res.wouldTerminate ?? [], skip: res.wouldSkip ?? [] };
  }, [reclaim, nodeId, reservationId, unitIds]);

  // Remember every VM seen while open, so the summary still shows the ones it terminated.
  const seen = useRef(new Map<string, VmView>());
  for (const v of vms) seen.current.set(v.id, v);
  const vmById = seen.current;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

  return (
    <PreviewDialog
      title={`Reclaim ${plural(unitIds.length, 'unit')} of ${reservationId}`}
      subtitle={unitIds.join(', ')}
      preview={preview}
      confirmLabel={(p) => reclaimLabel(p.terminate.length, unitIds.length)}
      confirm={(p) => reclaim({ nodeId, reservationId, unitIds, expectedTerminate: p.terminate, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
      isStale={(e) => problemOf(e)?.code === 'eviction_set_changed'}
      onStale={refreshPage}
      onDone={async () => {
        await refreshPage();
        onDone();
      }}
      onClose={onClose}
      renderPreview={(p, changed) => (
        <>
          {changed && (
            <p role="alert" data-testid="eviction-changed" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
              The spot VMs on these units changed since your preview. Review the new set below and confirm again.
            </p>
          )}
          <VmList
            title="Spot VMs that will be terminated"
            ids={p.terminate}
            vmById={vmById}
            empty="No spot VM runs on these units."
            tone="terminate"
            testId="preview-terminate"
          />
          <VmList title="VMs left running (not spot)" ids={p.skip} vmById={vmById} empty="None." tone="skip" testId="preview-skip" />
        </>
      )}
      renderResult={(result) => (
        <div data-testid="reclaim-summary" className="space-y-2">
          <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
            Reclaimed {plural(unitIds.length, 'unit')}. Terminated {plural(result.terminated?.length ?? 0, 'spot VM')}
            {result.skipped?.length ? `; left ${plural(result.skipped.length, 'non-spot VM')} running` : ''}.
          </p>
          <VmList title="Terminated" ids={result.terminated ?? []} vmById={vmById} empty="No VM was terminated." tone="terminate" />
          <VmList title="Left running (not spot)" ids={result.skipped ?? []} vmById={vmById} empty="None." tone="skip" />
        </div>
      )}
    >
      <label className="block text-sm font-medium text-slate-700">
        Reason <span className="font-normal text-slate-500">(recorded in the audit trail)</span>
        <textarea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={1000}
          rows={2}
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
          placeholder="e.g. the audience needs the capacity back"
        />
      </label>
    </PreviewDialog>
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
