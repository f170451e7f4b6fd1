'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { formatDateTime, formatRelative, reclaimLabel } from './format';
import { problemOf } from './problem';
import { useRefreshPage } from './live/use-refresh-page';
import { useTRPC } from './trpc-provider';
import { OrgOrAnother } from './another-org';
import type { AuditEvent, ReclaimResult, VmView } from './trpc-types';
import { PreviewDialog } from './ui/preview-dialog';

type Preview = {
  terminate: string[];
  skip: string[];
  /** The named units on the spot market now: the ones the reclaim takes back. */
  released: string[];
};
/** What a confirm found: the reclaim it made, or that someone had already done it (and who, from the audit trail). */
type Outcome = { kind: 'reclaimed'; released: string[]; result: ReclaimResult } | { kind: 'already'; event: AuditEvent | null };

/** Thrown when the confirm's fresh dry run differs from the preview shown: preview again and ask again. */
class PreviewOutOfDate extends Error {
  override name = 'PreviewOutOfDate';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
/** Nothing to reclaim: no named unit is on the market and no spot VM would end (docs/product.md §6). */
const hasWork = (p: Preview) => p.released.length > 0 || p.terminate.length > 0;

/**
 * Reclaim with a preview (docs/product.md §6): the dry run lists every VM to terminate and to
 * skip, with its units and start time (from the node's VM list), and which named units leave
 * the spot market; a reason; confirm sends `expectedTerminate`, and a changed eviction set (409
 * eviction_set_changed) is previewed again and asked again. A preview with nothing to take back
 * says so and offers no confirm. A confirm first runs the dry run again: when the work has been
 * done meanwhile (another tab, another person, a script), it sends nothing and says "already
 * reclaimed", with when and by whom as the audit trail shows it to this org (§2) — the reclaim's
 * own answer stays the published contract (§5.1a).
 */
export function ReclaimDialog(props: { nodeId: string; reservationId: string; unitIds: string[]; vms: VmView[]; onClose: () => void; onDone: () => void }) {
  const { nodeId, reservationId, unitIds, vms, onClose, onDone } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshPage = useRefreshPage();
  const [reason, setReason] = useState('');
  const { mutateAsync: reclaim } = useMutation(trpc.reservations.reclaim.mutationOptions());

  const preview = useCallback(async (): Promise<Preview> => {
    const res = await reclaim({ nodeId, reservationId, unitIds, dryRun: true });
    return { terminate: res.wouldTerminate ?? [], skip: res.wouldSkip ?? [], released: unitIds.filter((u) => res.releasedUnitIds.includes(u)) };
  }, [reclaim, nodeId, reservationId, unitIds]);

  /** The latest reclaim of these units this org may see (newest first; the actor as §2 shows it). */
  const lastReclaim = useCallback(async (): Promise<AuditEvent | null> => {
    const page = await queryClient
      .fetchQuery({ ...trpc.audit.list.queryOptions({ nodeId, reservationId, action: 'reservation.reclaim', limit: 20 }), staleTime: 0 })
      .catch(() => null);
    return page?.items.find((e) => e.unitIds.some((u) => unitIds.includes(u))) ?? null;
  }, [queryClient, trpc, nodeId, reservationId, unitIds]);

  const confirm = useCallback(
    async (shown: Preview): Promise<Outcome> => {
      const now = await preview();
      if (!hasWork(now)) return { kind: 'already', event: await lastReclaim() };
      if (!sameSet(now.terminate, shown.terminate) || !sameSet(now.released, shown.released)) throw new PreviewOutOfDate();
      const result = await reclaim({ nodeId, reservationId, unitIds, expectedTerminate: shown.terminate, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      return { kind: 'reclaimed', released: shown.released, result };
    },
    [preview, lastReclaim, reclaim, nodeId, reservationId, unitIds, reason],
  );

  // Remember every VM seen while open, so the summary still shows the ones it terminated.
  const seen = useRef(new Map<string, VmView>());
  for (const v of vms) seen.current.set(v.id, v);
  const vmById = seen.current;

  return (
    <PreviewDialog
      title={`Reclaim ${plural(unitIds.length, 'unit')} of ${reservationId}`}
      subtitle={unitIds.join(', ')}
      preview={preview}
      canConfirm={hasWork}
      confirmLabel={(p) => reclaimLabel(p.terminate.length, p.released.length)}
      confirm={confirm}
      isStale={(e) => e instanceof PreviewOutOfDate || problemOf(e)?.code === 'eviction_set_changed'}
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
              What these units hold changed since your preview. Review it below and confirm again.
            </p>
          )}
          {hasWork(p) ? (
            <p data-testid="preview-market" className="text-sm text-slate-700">
              {p.released.length > 0 ? (
                <>
                  Takes <span className="font-mono">{p.released.join(', ')}</span> off the spot market.
                </>
              ) : (
                'None of these units is on the spot market; the reclaim only ends the spot VMs below.'
              )}
            </p>
          ) : (
            <p data-testid="nothing-to-reclaim" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
              Nothing to reclaim: none of these units is on the spot market, and no spot VM runs on them.
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
      renderResult={(outcome) =>
        outcome.kind === 'already' ? (
          <AlreadyReclaimed event={outcome.event} />
        ) : (
          <div data-testid="reclaim-summary" className="space-y-2">
            <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
              {outcome.released.length > 0 ? `Took ${outcome.released.join(', ')} off the spot market. ` : ''}
              Terminated {plural(outcome.result.terminated?.length ?? 0, 'spot VM')}
              {outcome.result.skipped?.length ? `; left ${plural(outcome.result.skipped.length, 'non-spot VM')} running` : ''}.
            </p>
            <VmList title="Terminated" ids={outcome.result.terminated ?? []} vmById={vmById} empty="No VM was terminated." tone="terminate" />
            <VmList title="Left running (not spot)" ids={outcome.result.skipped ?? []} vmById={vmById} empty="None." tone="skip" />
          </div>
        )
      }
    >
      {(p: Preview) =>
        hasWork(p) && (
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
        )
      }
    </PreviewDialog>
  );
}

/** The work was done before this confirm: when, by whom (as §2 lets this org see it), how. */
function AlreadyReclaimed({ event }: { event: AuditEvent | null }) {
  return (
    <p data-testid="already-reclaimed" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
      Already reclaimed: nothing was left to do, so nothing was sent.{' '}
      {event ? (
        <>
          <span className="font-mono">{event.unitIds.join(', ')}</span> {event.unitIds.length === 1 ? 'was' : 'were'} reclaimed{' '}
          {formatRelative(event.at).replace(/^now$/, 'just now')} (<span title={event.at}>{formatDateTime(event.at)}</span>) by{' '}
          <OrgOrAnother orgId={event.actorOrgId} why="Your org may not see which org acted here." />
          {event.actorKey ? ` with the API key ${event.actorKey.name}` : ''} via {event.via}
          {event.details.terminated && Array.isArray(event.details.terminated) && event.details.terminated.length > 0
            ? `, terminating ${plural(event.details.terminated.length, 'spot VM')}`
            : ''}
          .
        </>
      ) : (
        'None of these units is on the spot market any more.'
      )}
    </p>
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
                <span className={`min-w-0 break-all font-mono ${tone === 'terminate' ? 'text-red-700' : 'text-slate-700'}`}>{id}</span>
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
