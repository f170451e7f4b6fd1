'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { formatDateTime } from './format';
import { OrgPicker } from './org-picker';
import { fieldErrors } from './problem-words';
import { useTRPC } from './trpc-provider';
import type { Reservation } from './trpc-types';
import { Field, FormDialog, inputClass } from './ui/form-dialog';
import { PreviewDialog } from './ui/preview-dialog';
import { useRefreshPage } from './live/use-refresh-page';
import { reservationHref } from './links';
import { isoToWallTime } from './local-time';
import { DateTimeField, toSend } from './date-time-field';
import { Time, useTimeZone } from './time-zone';

/**
 * The reservation actions of the console (docs/product.md §6): reserve, release, edit, cancel.
 * Each calls one tRPC procedure — one verb — and shows the API's problem details next to the
 * fields they name. Which of them a person is offered is the server's decision (the `actions`
 * the policy reports); these dialogs hold no rule.
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** A reason is optional everywhere: absent, not empty, when none is given. */
const optionalReason = (text: string) => (text.trim() ? { reason: text.trim() } : {});

/** What an edit changed, in words, for its outcome ("audience now org_a, org_b; ends open-ended"). */
function describeEdit(before: Reservation, after: Reservation, zone: string): string {
  const list = (ids: readonly string[]) => (ids.length ? ids.join(', ') : 'none');
  const changes = [
    list(before.allowedOrgIds) !== list(after.allowedOrgIds) && `audience now ${list(after.allowedOrgIds)}`,
    list(before.managingOrgIds) !== list(after.managingOrgIds) && `managing orgs now ${list(after.managingOrgIds)}`,
    before.endsAt !== after.endsAt && `ends ${after.endsAt ? formatDateTime(after.endsAt, zone) : 'open-ended'}`,
    (before.contractRef ?? '') !== (after.contractRef ?? '') && `contract reference ${after.contractRef ?? 'removed'}`,
    after.reservedUnitIds.length < before.reservedUnitIds.length &&
      `no longer holds ${before.reservedUnitIds.filter((u) => !after.reservedUnitIds.includes(u)).join(', ')}`,
  ].filter((c): c is string => typeof c === 'string');
  return changes.length ? changes.join('; ') : 'nothing changed';
}

/** After any change: everything the page shows may differ now. */
const useRefresh = useRefreshPage;

/** What a reservation's holder agrees to, as the reserve and edit dialogs edit it. */
type Terms = { allowed: string[]; managing: string[]; openEnded: boolean; endsAt: string; contractRef: string; reason: string };

function useTerms(initial: Terms): [Terms, (patch: Partial<Terms>) => void] {
  const [terms, setTerms] = useState(initial);
  return [terms, (patch) => setTerms((t) => ({ ...t, ...patch }))];
}

/** The fields the reserve and edit dialogs share; `children` go between the orgs and the end. */
function TermsFields(props: { terms: Terms; set: (patch: Partial<Terms>) => void; error: unknown; children?: ReactNode; known?: Record<string, string> }) {
  const { terms, set, error, children, known } = props;
  return (
    <>
      <OrgPicker
        label="Audience (may place workloads)"
        value={terms.allowed}
        onChange={(allowed) => set({ allowed })}
        errors={fieldErrors(error, 'allowedOrgIds')}
        known={known}
      />
      <OrgPicker
        label="Managing orgs (may release and reclaim)"
        value={terms.managing}
        onChange={(managing) => set({ managing })}
        errors={fieldErrors(error, 'managingOrgIds')}
        known={known}
      />
      {children}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={terms.openEnded} onChange={(e) => set({ openEnded: e.target.checked })} /> Open-ended
        </label>
        {!terms.openEnded && (
          <DateTimeField label="Ends at" value={terms.endsAt} onChange={(endsAt) => set({ endsAt })} errors={fieldErrors(error, 'endsAt')} />
        )}
      </div>
      <Field label="Contract reference" hint="(optional)" errors={fieldErrors(error, 'contractRef')}>
        <input value={terms.contractRef} onChange={(e) => set({ contractRef: e.target.value })} maxLength={200} className={inputClass} />
      </Field>
      <Field label="Reason" hint="(recorded in the audit trail)" errors={fieldErrors(error, 'reason')}>
        <textarea value={terms.reason} onChange={(e) => set({ reason: e.target.value })} maxLength={1000} rows={2} className={inputClass} />
      </Field>
    </>
  );
}

/** Reserve units of a node for an audience (operator, owner). */
export function ReserveDialog({ nodeId, unitIds, onClose, onDone }: { nodeId: string; unitIds: string[]; onClose: () => void; onDone: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.reservations.create.mutationOptions());
  const [terms, set] = useTerms({ allowed: [], managing: [], openEnded: true, endsAt: '', contractRef: '', reason: '' });
  const [start, setStart] = useState<'now' | 'later'>('now');
  const [startsAt, setStartsAt] = useState('');
  const { zone } = useTimeZone();

  return (
    <FormDialog
      title={`Reserve ${plural(unitIds.length, 'unit')} of ${nodeId}`}
      description={<span className="font-mono text-xs">{unitIds.join(', ')}</span>}
      submitLabel={`Reserve ${plural(unitIds.length, 'unit')}`}
      submitDisabled={terms.allowed.length === 0}
      onClose={onClose}
      onDone={onDone}
      outcome={(created) => ({
        message: `Reserved ${plural(created.reservedUnitIds.length, 'unit')} of ${nodeId} (${created.reservedUnitIds.join(', ')}) as ${created.id}, ${created.status === 'pending' ? `from ${formatDateTime(created.startsAt, zone)}` : 'from now'}.`,
        link: { href: reservationHref(nodeId, created.id), label: `Open ${created.id}` },
      })}
      onSubmit={() =>
        create.mutateAsync({
          nodeId,
          reservedUnitIds: unitIds,
          allowedOrgIds: terms.allowed,
          ...(terms.managing.length ? { managingOrgIds: terms.managing } : {}),
          ...(start === 'later' && startsAt ? { startsAt: toSend(startsAt, zone) } : {}),
          ...(!terms.openEnded && terms.endsAt ? { endsAt: toSend(terms.endsAt, zone) } : {}),
          ...(terms.contractRef.trim() ? { contractRef: terms.contractRef.trim() } : {}),
          ...optionalReason(terms.reason),
        })
      }
    >
      {(error) => (
        <TermsFields terms={terms} set={set} error={error}>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-medium text-ink-2">Starts</span>
            <label className="flex items-center gap-1">
              <input type="radio" name="start" checked={start === 'now'} onChange={() => setStart('now')} /> now
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="start" checked={start === 'later'} onChange={() => setStart('later')} /> later
            </label>
            {start === 'later' && <DateTimeField label="Starts at" value={startsAt} onChange={setStartsAt} errors={fieldErrors(error, 'startsAt')} />}
          </div>
        </TermsFields>
      )}
    </FormDialog>
  );
}

/** Release reserved idle units to the spot market, after previewing the reservation as it would look. */
export function ReleaseDialog(props: { nodeId: string; reservationId: string; unitIds: string[]; onClose: () => void; onDone: () => void }) {
  const { nodeId, reservationId, unitIds, onClose, onDone } = props;
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { mutateAsync: release } = useMutation(trpc.reservations.release.mutationOptions());
  const [reason, setReason] = useState('');
  const preview = useCallback(() => release({ nodeId, reservationId, unitIds, dryRun: true }), [release, nodeId, reservationId, unitIds]);
  return (
    <PreviewDialog
      tone="primary"
      title={`Release ${plural(unitIds.length, 'unit')} of ${reservationId}`}
      subtitle={unitIds.join(', ')}
      preview={preview}
      confirmLabel={() => `Release ${plural(unitIds.length, 'unit')} to the spot market`}
      confirm={() => release({ nodeId, reservationId, unitIds, ...optionalReason(reason) })}
      onDone={() => {
        void refresh();
        onDone();
      }}
      onClose={onClose}
      renderPreview={(after) => (
        <div data-testid="release-preview" className="space-y-2 text-sm">
          <p>Anyone may then run spot VMs on these units, and your reservation can reclaim them at any time, terminating those VMs.</p>
          <dl className="grid grid-cols-[9rem_1fr] gap-1">
            <dt className="text-ink-4">Released after</dt>
            <dd className="font-mono">{after.releasedUnitIds.join(', ') || '—'}</dd>
            <dt className="text-ink-4">Reserved</dt>
            <dd className="font-mono">{after.reservedUnitIds.join(', ')}</dd>
          </dl>
        </div>
      )}
      renderResult={(r) => (
        <p data-testid="release-summary" className="rounded-md bg-ok-soft p-3 text-sm text-ok-ink">
          Released. On the spot market now: <span className="font-mono">{r.releasedUnitIds.join(', ')}</span>.
        </p>
      )}
    >
      <Field label="Reason" hint="(recorded in the audit trail)">
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={2} className={inputClass} />
      </Field>
    </PreviewDialog>
  );
}

/** Edit a reservation's audience, managers, end, contract ref, or shrink its units (operator, owner). */
export function EditReservationDialog({ reservation: r, onClose }: { reservation: Reservation; onClose: () => void }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.reservations.update.mutationOptions());
  // The names of the orgs it names, for its chips (ids the caller already sees).
  const offers = useQuery(trpc.reservations.offers.queryOptions({ nodeId: r.nodeId, reservationId: r.id }));
  const { zone } = useTimeZone();
  const [terms, set] = useTerms({
    allowed: r.allowedOrgIds,
    managing: r.managingOrgIds,
    openEnded: !r.endsAt,
    endsAt: r.endsAt ? isoToWallTime(r.endsAt, zone) : '',
    contractRef: r.contractRef ?? '',
    reason: '',
  });
  const [keep, setKeep] = useState<string[]>(r.reservedUnitIds);

  return (
    <FormDialog
      title={`Edit ${r.id}`}
      submitLabel="Save changes"
      submitDisabled={terms.allowed.length === 0 || keep.length === 0}
      onClose={onClose}
      outcome={(after) => ({
        message: `Saved ${r.id}: ${describeEdit(r, after, zone)}.`,
        link: { href: reservationHref(r.nodeId, r.id), label: `Open ${r.id}` },
      })}
      onSubmit={() =>
        update.mutateAsync({
          nodeId: r.nodeId,
          reservationId: r.id,
          allowedOrgIds: terms.allowed,
          managingOrgIds: terms.managing,
          endsAt: terms.openEnded ? null : terms.endsAt ? toSend(terms.endsAt, zone) : undefined,
          contractRef: terms.contractRef.trim() ? terms.contractRef.trim() : null,
          ...(keep.length !== r.reservedUnitIds.length ? { reservedUnitIds: keep } : {}),
          ...optionalReason(terms.reason),
        })
      }
    >
      {(error) => (
        <TermsFields terms={terms} set={set} error={error} known={offers.data?.orgNames}>
          <fieldset className="text-sm">
            <legend className="font-medium text-ink-2">Units (a reservation may lose units, never gain them)</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {r.reservedUnitIds.map((u) => (
                <label key={u} className="flex items-center gap-1 font-mono text-xs">
                  <input
                    type="checkbox"
                    checked={keep.includes(u)}
                    onChange={(e) => setKeep(e.target.checked ? r.reservedUnitIds.filter((x) => x === u || keep.includes(x)) : keep.filter((x) => x !== u))}
                  />{' '}
                  {u}
                </label>
              ))}
            </div>
            {fieldErrors(error, 'reservedUnitIds').map((m) => (
              <span key={m} className="mt-1 block text-xs text-danger">
                {m}
              </span>
            ))}
          </fieldset>
        </TermsFields>
      )}
    </FormDialog>
  );
}

/** Cancel a reservation, saying what stops being held and that running VMs keep running (operator, owner). */
export function CancelReservationDialog({ reservation: r, onClose }: { reservation: Reservation; onClose: () => void }) {
  const trpc = useTRPC();
  const cancel = useMutation(trpc.reservations.cancel.mutationOptions());
  const [reason, setReason] = useState('');
  return (
    <FormDialog
      tone="danger"
      title={`Cancel reservation ${r.id}`}
      submitLabel="Cancel reservation"
      onClose={onClose}
      outcome={() => ({
        message: `Cancelled ${r.id}: it no longer holds ${r.reservedUnitIds.join(', ')}; VMs running on them keep running.`,
        link: { href: reservationHref(r.nodeId, r.id), label: `Open ${r.id}` },
      })}
      onSubmit={() => cancel.mutateAsync({ nodeId: r.nodeId, reservationId: r.id, ...optionalReason(reason) })}
    >
      {(error) => (
        <>
          <div data-testid="cancel-consequences" className="space-y-1 text-sm">
            <p>
              {plural(r.reservedUnitIds.length, 'unit')} stop being held by this reservation: <span className="font-mono">{r.reservedUnitIds.join(', ')}</span>
              {r.releasedUnitIds.length > 0 && (
                <>
                  {' '}
                  (of which on the spot market: <span className="font-mono">{r.releasedUnitIds.join(', ')}</span>)
                </>
              )}
              .
            </p>
            <p>
              Running VMs on them keep running. The reservation stays on record as cancelled (<Time iso={r.startsAt} /> →{' '}
              {r.endsAt ? <Time iso={r.endsAt} /> : 'open-ended'}).
            </p>
          </div>
          <Field label="Reason" hint="(recorded in the audit trail)" errors={fieldErrors(error, 'reason')}>
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={2} className={inputClass} />
          </Field>
        </>
      )}
    </FormDialog>
  );
}
