'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import Link from 'next/link';
import { formatRelative } from './format';
import { reservationHref } from './links';
import { problemOf } from './problem';
import { useRefreshPage } from './live/use-refresh-page';
import { useTRPC } from './trpc-provider';
import { OrgOrAnother } from './another-org';
import { offers } from './offers';
import { ScheduleTimeField, scheduleTimeToSend } from './schedule-time';
import type { AuditEvent, ReclaimResult, ReclaimSchedule, VmView } from './trpc-types';
import { PreviewDialog } from './ui/preview-dialog';
import { Id, UnitIds } from './unit-ids';
import { Time, useTimeZone } from './time-zone';

type Preview = {
  terminate: string[];
  skip: string[];
  /** The named units on the spot market now: the ones the reclaim takes back. */
  released: string[];
};
/**
 * What a confirm found: the reclaim it made, or that someone had already done it (and who, from
 * the audit trail); or, scheduled, the schedule and how many spot VMs' tenants it told.
 */
type Outcome =
  | { kind: 'reclaimed'; released: string[]; result: ReclaimResult }
  | { kind: 'already'; event: AuditEvent | null }
  | { kind: 'scheduled'; schedule: ReclaimSchedule; told: number };
/** Now, or at a time the tenants are told in advance (issue 22). */
type Mode = 'now' | 'schedule';

/** Thrown when the confirm's fresh dry run differs from the preview shown: preview again and ask again. */
class PreviewOutOfDate extends Error {
  override name = 'PreviewOutOfDate';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** "2 spot VMs' tenants were told." — the tenants a schedule notified (those running spot VMs on its units now). */
const toldWords = (n: number) =>
  n === 0
    ? 'No spot VM runs on them now; whoever places one there sees the deadline.'
    : n === 1
      ? '1 spot VM’s tenant was told.'
      : `${n} spot VMs’ tenants were told.`;
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
/** Nothing to reclaim: no named unit is on the market and no spot VM would end (docs/product.md §6). */
const hasWork = (p: Preview) => p.released.length > 0 || p.terminate.length > 0;

/**
 * "Terminate 3 spot VMs and reclaim 4 units" (docs/product.md §6), counting only what the
 * reclaim changes: the units it takes off the spot market, the VMs it ends. "Terminate 1 spot
 * VM" when no named unit is on the market (a spot VM that started before the reservation).
 * Here, not in components/format.ts, which every page loads: only this dialog says it.
 */
function reclaimLabel(vmCount: number, unitCount: number): string {
  const vms = `Terminate ${vmCount} spot VM${vmCount === 1 ? '' : 's'}`;
  const units = `reclaim ${unitCount} unit${unitCount === 1 ? '' : 's'}`;
  if (unitCount === 0) return vms;
  if (vmCount === 0) return units[0]!.toUpperCase() + units.slice(1);
  return `${vms} and ${units}`;
}

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
export function ReclaimDialog(props: {
  nodeId: string;
  reservationId: string;
  unitIds: string[];
  vms: VmView[];
  /** The reservation's end, when it has one: a schedule must come before it. */
  endsAt?: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { nodeId, reservationId, unitIds, vms, endsAt, onClose, onDone } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshPage = useRefreshPage();
  const [reason, setReason] = useState('');
  const [mode, setMode] = useState<Mode>('now');
  const [at, setAt] = useState('');
  const { zone } = useTimeZone();
  // The last refusal of a schedule, for the time field to say beside it (the dialog's alert repeats it).
  const [scheduleError, setScheduleError] = useState<unknown>(null);
  const { mutateAsync: reclaim } = useMutation(trpc.reservations.reclaim.mutationOptions());
  const { mutateAsync: createSchedule } = useMutation(trpc.scheduledReclaims.create.mutationOptions());

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

  const schedule = useCallback(
    async (shown: Preview): Promise<Outcome> => {
      setScheduleError(null);
      try {
        const created = await createSchedule({
          nodeId,
          reservationId,
          unitIds,
          at: scheduleTimeToSend(at, zone, endsAt),
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        });
        // Told are the tenants of the spot VMs on these units now: what a dry run finds (the one shown, if it cannot run).
        const told = (await preview().catch(() => shown)).terminate.length;
        return { kind: 'scheduled', schedule: created, told };
      } catch (e) {
        setScheduleError(e);
        throw e;
      }
    },
    [createSchedule, preview, nodeId, reservationId, unitIds, at, zone, endsAt, reason],
  );

  const confirm = useCallback(
    async (shown: Preview): Promise<Outcome> => {
      if (mode === 'schedule') return schedule(shown);
      const now = await preview();
      if (!hasWork(now)) return { kind: 'already', event: await lastReclaim() };
      if (!sameSet(now.terminate, shown.terminate) || !sameSet(now.released, shown.released)) throw new PreviewOutOfDate();
      const result = await reclaim({ nodeId, reservationId, unitIds, expectedTerminate: shown.terminate, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      return { kind: 'reclaimed', released: shown.released, result };
    },
    [mode, schedule, preview, lastReclaim, reclaim, nodeId, reservationId, unitIds, reason],
  );

  // Remember every VM seen while open, so the summary still shows the ones it terminated.
  const seen = useRef(new Map<string, VmView>());
  for (const v of vms) seen.current.set(v.id, v);
  const vmById = seen.current;

  return (
    <PreviewDialog
      title={`${mode === 'schedule' ? 'Schedule a reclaim of' : 'Reclaim'} ${plural(unitIds.length, 'unit')} of ${reservationId}`}
      subtitle={unitIds.join(', ')}
      preview={preview}
      // A schedule takes whatever is on the market when it runs: nothing now is no reason not to.
      canConfirm={(p) => mode === 'schedule' || hasWork(p)}
      confirmLabel={(p) =>
        mode === 'schedule' ? `Schedule the reclaim of ${plural(unitIds.length, 'unit')}` : reclaimLabel(p.terminate.length, p.released.length)
      }
      confirm={confirm}
      tone={mode === 'schedule' ? 'primary' : 'danger'}
      // A new time, or the other mode: what was said of the old one no longer holds.
      errorFor={`${mode} ${at}`}
      isStale={(e) => mode === 'now' && (e instanceof PreviewOutOfDate || problemOf(e)?.code === 'eviction_set_changed')}
      onStale={refreshPage}
      onDone={async () => {
        await refreshPage();
        onDone();
      }}
      onClose={onClose}
      renderPreview={(p, changed) => (
        <>
          <ModeSwitch
            mode={mode}
            onChange={(m) => {
              setScheduleError(null);
              setMode(m);
            }}
          />
          {mode === 'schedule' ? (
            <SchedulePreview p={p} vmById={vmById} />
          ) : (
            <>
              {changed && (
                <p role="alert" data-testid="eviction-changed" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
                  What these units hold changed since your preview. Review it below and confirm again.
                </p>
              )}
              {hasWork(p) ? (
                <p data-testid="preview-market" className="text-sm text-ink-2">
                  {p.released.length > 0 ? (
                    <>
                      Takes <span className="font-mono">{p.released.join(', ')}</span> off the spot market.
                    </>
                  ) : (
                    'None of these units is on the spot market; the reclaim only ends the spot VMs below.'
                  )}
                </p>
              ) : (
                <p data-testid="nothing-to-reclaim" className="rounded-md border border-line bg-surface-2 p-3 text-sm text-ink-2">
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
        </>
      )}
      renderResult={(outcome) =>
        outcome.kind === 'scheduled' ? (
          <p data-testid="schedule-summary" className="rounded-md bg-ok-soft p-3 text-sm text-ok-ink">
            Scheduled a reclaim of <span className="font-mono">{outcome.schedule.unitIds.join(', ')}</span> at <Time iso={outcome.schedule.at} />.{' '}
            {toldWords(outcome.told)}{' '}
            <Link href={reservationHref(nodeId, reservationId)} className="font-medium underline">
              See the schedules of {reservationId}
            </Link>
          </p>
        ) : outcome.kind === 'already' ? (
          <AlreadyReclaimed event={outcome.event} />
        ) : (
          <div data-testid="reclaim-summary" className="space-y-2">
            <p className="rounded-md bg-ok-soft p-3 text-sm text-ok-ink">
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
        (mode === 'schedule' || hasWork(p)) && (
          <>
            {mode === 'schedule' && (
              <ScheduleTimeField
                value={at}
                onChange={(local) => {
                  // What was said beside the field was of the time it had: a new one is judged when sent.
                  setScheduleError(null);
                  setAt(local);
                }}
                error={scheduleError}
              />
            )}
            <label className="block text-sm font-medium text-ink-2">
              Reason{' '}
              <span className="font-normal text-ink-4">
                {mode === 'schedule'
                  ? '(told to the spot tenants, and recorded in the audit trail)'
                  : '(told to the spot tenants it ends, and recorded in the audit trail)'}
              </span>
              <textarea
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                maxLength={1000}
                rows={2}
                className="mt-1 block w-full rounded-md border border-line-strong px-3 py-2 text-sm shadow-sm focus:border-focus focus:outline-none focus:ring-1 focus:ring-focus"
                placeholder="e.g. the audience needs the capacity back"
              />
            </label>
          </>
        )
      }
    </PreviewDialog>
  );
}

/** The work was done before this confirm: when, by whom (as §2 lets this org see it), how. */
function AlreadyReclaimed({ event }: { event: AuditEvent | null }) {
  return (
    <p data-testid="already-reclaimed" className="rounded-md border border-line bg-surface-2 p-3 text-sm text-ink">
      Already reclaimed: nothing was left to do, so nothing was sent.{' '}
      {event ? (
        <>
          <span className="font-mono">{event.unitIds.join(', ')}</span> {event.unitIds.length === 1 ? 'was' : 'were'} reclaimed{' '}
          {formatRelative(event.at).replace(/^now$/, 'just now')} (<Time iso={event.at} />) by{' '}
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
      <h3 className="mb-1 text-sm font-semibold text-ink">
        {title} <span className="font-normal text-ink-4">({ids.length})</span>
      </h3>
      {ids.length === 0 ? (
        <p className="text-sm text-ink-4">{empty}</p>
      ) : (
        <ul className="divide-y divide-line-soft rounded-md border border-line text-sm">
          {ids.map((id) => {
            const vm = vmById.get(id);
            return (
              <li key={id} data-vm-id={id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className={`min-w-0 font-mono ${tone === 'terminate' ? 'text-danger' : 'text-ink-2'}`}>
                  <Id id={id} />
                </span>
                <span className="text-ink-3">{vm ? <UnitIds ids={vm.unitIds} /> : '—'}</span>
                {vm ? (
                  <Time iso={vm.startedAt} className="text-xs text-ink-4">
                    started {formatRelative(vm.startedAt)}
                  </Time>
                ) : (
                  <span />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** "Reclaim now" or "Schedule…": the same units, at once or at a time the tenants are told of first. */
function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  const option = (value: Mode, label: string, extra: object = {}) => (
    <label
      {...extra}
      className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${mode === value ? 'border-accent bg-accent-soft text-accent-ink-strong' : 'border-line-strong bg-surface text-ink-2 hover:bg-surface-2'}`}
    >
      <input type="radio" name="reclaim-mode" value={value} checked={mode === value} onChange={() => onChange(value)} className="accent-accent" />
      {label}
    </label>
  );
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">When</legend>
      {option('now', 'Reclaim now')}
      {option('schedule', 'Schedule…', offers('node.schedule-reclaim'))}
    </fieldset>
  );
}

/** What a schedule does: nothing now; the tenants of the spot VMs on these units are told, and at its time the reclaim runs. */
function SchedulePreview({ p, vmById }: { p: Preview; vmById: Map<string, VmView> }) {
  return (
    <>
      <p data-testid="schedule-explainer" className="text-sm text-ink-2">
        Nothing changes now. Tenants running spot VMs on these units are told at once, and again if you reschedule or cancel; at that time the reclaim runs
        once, taking back what is on the spot market then and terminating the spot VMs on it.
      </p>
      <VmList
        title="Spot VMs on these units now (their tenants are told)"
        ids={p.terminate}
        vmById={vmById}
        empty="No spot VM runs on these units now."
        tone="terminate"
        testId="schedule-told"
      />
    </>
  );
}
