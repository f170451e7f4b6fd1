'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { nodeHref, reservationHref } from './links';
import { useRefreshPage } from './live/use-refresh-page';
import { OrgPicker } from './org-picker';
import { problemOf } from './problem';
import { errorMessage, fieldErrors, fieldLabel } from './problem-words';
import { useTRPC } from './trpc-provider';
import type { NodeData, Reservation } from './trpc-types';
import { Field, FormDialog, inputClass } from './ui/form-dialog';
import { offers } from './offers';

/**
 * The operator's topology actions (docs/product.md §5.4, §6): register a node, edit a node's
 * unit list, and re-affirm a needs-review reservation after reviewing what changed.
 */

type UnitDraft = { id: string; model: string; memoryGiB: string; nvlinkDomain: string };
const toDraft = (u: { id: string; model?: string; memoryGiB?: number; nvlinkDomain?: string }): UnitDraft => ({
  id: u.id,
  model: u.model ?? '',
  memoryGiB: u.memoryGiB?.toString() ?? '',
  nvlinkDomain: u.nvlinkDomain ?? '',
});
const fromDraft = (u: UnitDraft) => ({
  id: u.id.trim(),
  ...(u.model.trim() ? { model: u.model.trim() } : {}),
  ...(u.memoryGiB.trim() ? { memoryGiB: Number(u.memoryGiB) } : {}),
  ...(u.nvlinkDomain.trim() ? { nvlinkDomain: u.nvlinkDomain.trim() } : {}),
});

/**
 * What the form can tell before sending, per unit row, in the label's words: a memory that is
 * not a whole number of GiB would otherwise reach the server as NaN, which no JSON carries, and
 * come back in transport words (docs/product.md §6 "errors in words").
 */
function draftProblems(units: readonly UnitDraft[]): (string | null)[] {
  return units.map((u, i) => {
    const memory = u.memoryGiB.trim();
    if (!u.id.trim()) return `Unit ${i + 1} needs an id.`;
    if (memory && !(/^\d+$/.test(memory) && Number(memory) >= 1 && Number(memory) <= 65_536))
      return `Memory (GiB) of unit ${i + 1} must be a whole number from 1 to 65536, such as 80.`;
    return null;
  });
}

/** @throws Error with the first row's problem, for the dialog to show (and scroll to) before anything is sent. */
function assertDraftsValid(units: readonly UnitDraft[]) {
  const first = draftProblems(units).find((p) => p !== null);
  if (first) throw new Error(first);
}

const unitColumns = ['id', 'model', 'memoryGiB', 'nvlinkDomain'] as const;

/** The unit list editor both dialogs share: one row per unit, add and remove; each row's problems under it. */
function UnitsEditor({ units, onChange, error }: { units: UnitDraft[]; onChange: (u: UnitDraft[]) => void; error: unknown }) {
  const set = (i: number, patch: Partial<UnitDraft>) => onChange(units.map((u, j) => (j === i ? { ...u, ...patch } : u)));
  // The server's, for the list as a whole (each row's own show under that row).
  const errs = (problemOf(error)?.errors ?? []).filter((e) => e.path.split('.').length === 2 && e.path.endsWith('.units')).map((e) => errorMessage(e.message));
  // The form's own checks show once a submit tried; the server's as they come.
  const local = error ? draftProblems(units) : units.map(() => null);
  const rowProblems = units.map((_, i) => {
    const server = unitColumns.flatMap((c) => fieldErrors(error, `units.${i}.${c}`).map((m) => `${fieldLabel(`input.units.${i}.${c}`)}: ${m}`));
    return [...(local[i] ? [local[i]] : []), ...server];
  });
  return (
    <fieldset className="text-sm">
      <legend className="font-medium text-ink-2">Units ({units.length})</legend>
      <table className="mt-1 w-full text-left text-xs">
        <thead className="text-ink-4">
          <tr>
            <th className="py-1 pr-2 font-medium">Id</th>
            <th className="py-1 pr-2 font-medium">Model</th>
            <th className="py-1 pr-2 font-medium">Memory (GiB)</th>
            <th className="py-1 pr-2 font-medium">NVLink domain</th>
            <th>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {units.map((u, i) => (
            <UnitRow key={i} problems={rowProblems[i] ?? []}>
              <td className="py-0.5 pr-2">
                <input aria-label={`Unit ${i + 1} id`} value={u.id} onChange={(e) => set(i, { id: e.target.value })} className={`${inputClass} font-mono`} />
              </td>
              <td className="py-0.5 pr-2">
                <input aria-label={`Unit ${i + 1} model`} value={u.model} onChange={(e) => set(i, { model: e.target.value })} className={inputClass} />
              </td>
              <td className="py-0.5 pr-2">
                <input
                  aria-label={`Unit ${i + 1} memory in GiB`}
                  aria-invalid={(rowProblems[i] ?? []).some((m) => m.startsWith('Memory')) || undefined}
                  inputMode="numeric"
                  value={u.memoryGiB}
                  onChange={(e) => set(i, { memoryGiB: e.target.value })}
                  className={inputClass}
                />
              </td>
              <td className="py-0.5 pr-2">
                <input
                  aria-label={`Unit ${i + 1} NVLink domain`}
                  value={u.nvlinkDomain}
                  onChange={(e) => set(i, { nvlinkDomain: e.target.value })}
                  className={inputClass}
                />
              </td>
              <td className="py-0.5">
                <button
                  type="button"
                  aria-label={`Remove unit ${u.id || i + 1}`}
                  onClick={() => onChange(units.filter((_, j) => j !== i))}
                  className="rounded px-2 py-1 hover:bg-surface-3"
                >
                  ×
                </button>
              </td>
            </UnitRow>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={() => onChange([...units, { ...(units.at(-1) ?? { model: '', memoryGiB: '', nvlinkDomain: '' }), id: `gpu-${units.length}` }])}
        className="mt-2 rounded-md border border-line-strong bg-surface px-3 py-1 text-xs hover:bg-surface-2"
      >
        Add unit
      </button>
      {errs.map((m) => (
        <span key={m} data-field-error className="mt-1 block text-xs text-danger">
          {m}
        </span>
      ))}
    </fieldset>
  );
}

/** One unit's row, and under it what is wrong with it (beside the fields it names, not below the table). */
function UnitRow({ problems, children }: { problems: string[]; children: ReactNode }) {
  return (
    <>
      <tr>{children}</tr>
      {problems.length > 0 && (
        <tr>
          <td colSpan={5} className="pb-1">
            {problems.map((m) => (
              <span key={m} data-field-error className="block text-xs text-danger">
                {m}
              </span>
            ))}
          </td>
        </tr>
      )}
    </>
  );
}

/** Register a node with its units (operator). */
export function RegisterNodeDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const register = useMutation(trpc.nodes.register.mutationOptions());
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [owner, setOwner] = useState<string[]>([]);
  const [units, setUnits] = useState<UnitDraft[]>(
    Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: '80', nvlinkDomain: `nvl-${Math.floor(i / 4)}` })),
  );
  return (
    <FormDialog
      title="Register a node"
      submitLabel="Register node"
      submitDisabled={!id.trim() || !name.trim() || owner.length !== 1 || units.length === 0}
      onClose={onClose}
      outcome={(node) => ({
        message: `Registered ${node.name} (${node.id}) with ${node.units.length} unit${node.units.length === 1 ? '' : 's'}, owned by ${node.ownerOrgId}.`,
        link: { href: nodeHref(node.id), label: `Open ${node.id}` },
      })}
      onSubmit={async () => {
        assertDraftsValid(units);
        return register.mutateAsync({ id: id.trim(), name: name.trim(), ownerOrgId: owner[0]!, units: units.map(fromDraft) });
      }}
    >
      {(error) => (
        <>
          <Field label="Node id" errors={fieldErrors(error, 'id')}>
            <input value={id} onChange={(e) => setId(e.target.value)} placeholder="e.g. acme-h100-15" className={`${inputClass} font-mono`} />
          </Field>
          <Field label="Name" errors={fieldErrors(error, 'name')}>
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Acme H100 #15 (fra-1)" className={inputClass} />
          </Field>
          <OrgPicker label="Owner org (exactly one)" value={owner} onChange={(ids) => setOwner(ids.slice(-1))} errors={fieldErrors(error, 'ownerOrgId')} />
          <UnitsEditor units={units} onChange={setUnits} error={error} />
        </>
      )}
    </FormDialog>
  );
}

type TopologyUnit = { id: string; model?: string; memoryGiB?: number; nvlinkDomain?: string };
/** A unit's topology fields alone, in one key order (the diff compares them as JSON). */
const asUnit = (u: TopologyUnit): TopologyUnit => ({
  id: u.id,
  ...(u.model !== undefined ? { model: u.model } : {}),
  ...(u.memoryGiB !== undefined ? { memoryGiB: u.memoryGiB } : {}),
  ...(u.nvlinkDomain !== undefined ? { nvlinkDomain: u.nvlinkDomain } : {}),
});
/** The 409 of a stale `expectedTopologyGen` (docs/product.md §5.4): the node moved on since the dialog showed it. */
const topologyMovedOn = (e: unknown) => problemOf(e)?.code === 'topology_changed';

/**
 * Replace a node's unit list (operator): a change bumps topologyGen and puts its reservations in
 * review. Saving sends the generation the edit started from (`expectedTopologyGen`); if someone
 * changed the topology meanwhile (409 topology_changed), the dialog takes the node's new list as
 * its base, shows how the edit differs from it now, and asks again — never silently undoing the
 * other change.
 */
export function TopologyDialog({ node, onClose }: { node: NodeData; onClose: () => void }) {
  const trpc = useTRPC();
  const refreshPage = useRefreshPage();
  const change = useMutation(trpc.nodes.changeTopology.mutationOptions());
  const history = useQuery({ ...trpc.nodes.topologyHistory.queryOptions({ nodeId: node.id }), enabled: false });
  const [units, setUnits] = useState<UnitDraft[]>(node.units.map(toDraft));
  // The generation the edit is based on: the page's when opened, the node's latest after a 409.
  const [base, setBase] = useState<{ gen: number; units: TopologyUnit[]; changed: boolean }>({
    gen: node.topologyGen,
    units: node.units.map(asUnit),
    changed: false,
  });
  const diff = diffTopology(base.units, units.map(fromDraft).map(asUnit));
  return (
    <FormDialog
      title={`Change the topology of ${node.id}`}
      description={`Generation ${base.gen}. Any difference makes it ${base.gen + 1}, and every pending or active reservation on the node needs review until re-affirmed.`}
      submitLabel="Save topology"
      submitDisabled={units.length === 0}
      onClose={onClose}
      outcome={(after) => ({
        message:
          after.topologyGen === base.gen
            ? `The topology of ${node.id} was already this list: nothing changed.`
            : `Saved the topology of ${node.id}: generation ${after.topologyGen}. Its pending and active reservations need review until re-affirmed.`,
        link: { href: nodeHref(node.id), label: `Open ${node.id}` },
      })}
      onSubmit={async () => {
        assertDraftsValid(units);
        return change.mutateAsync({ nodeId: node.id, units: units.map(fromDraft), expectedTopologyGen: base.gen });
      }}
      isStale={topologyMovedOn}
      onStale={async () => {
        const latest = (await history.refetch()).data?.at(-1);
        if (latest) setBase({ gen: latest.gen, units: latest.units.map(asUnit), changed: true });
        await refreshPage();
      }}
    >
      {(error) => (
        <>
          {base.changed && (
            <p role="alert" data-testid="topology-changed" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
              Someone changed this node’s topology while you edited it: it is at generation {base.gen} now. Below is how your list differs from that one; save
              again to replace it, or cancel.
            </p>
          )}
          <UnitsEditor units={units} onChange={setUnits} error={error} />
          <DiffTable
            diff={diff}
            beforeLabel={`Generation ${base.gen}`}
            afterLabel="Your list"
            held={new Set()}
            empty={`Your list is generation ${base.gen} as it is: saving changes nothing.`}
            testId="topology-changes"
          />
        </>
      )}
    </FormDialog>
  );
}

type UnitDiff = { id: string; change: 'added' | 'removed' | 'changed'; before?: TopologyUnit; after?: TopologyUnit };

/** What changed for a reservation between its generation and the node's (its units first). */
export function diffTopology(before: readonly TopologyUnit[], after: readonly TopologyUnit[]): UnitDiff[] {
  const old = new Map(before.map((u) => [u.id, u]));
  const now = new Map(after.map((u) => [u.id, u]));
  const out: UnitDiff[] = [];
  for (const u of after) {
    const b = old.get(u.id);
    if (!b) out.push({ id: u.id, change: 'added', after: u });
    else if (JSON.stringify(b) !== JSON.stringify(u)) out.push({ id: u.id, change: 'changed', before: b, after: u });
  }
  for (const u of before) if (!now.has(u.id)) out.push({ id: u.id, change: 'removed', before: u });
  return out;
}

const describe = (u?: TopologyUnit) => (u ? [u.model, u.memoryGiB && `${u.memoryGiB} GiB`, u.nvlinkDomain].filter(Boolean).join(' · ') : '');

/** A per-unit diff, the units in `held` (a reservation's) in bold. */
function DiffTable(props: {
  diff: UnitDiff[] | null;
  beforeLabel: string;
  afterLabel: string;
  held: ReadonlySet<string>;
  empty: string;
  testId: string;
  offer?: ReturnType<typeof offers>;
}) {
  const { diff, beforeLabel, afterLabel, held, empty, testId, offer } = props;
  return (
    <table className="w-full text-left text-xs" data-testid={testId} {...offer}>
      <thead className="text-ink-4">
        <tr>
          <th className="py-1 pr-2 font-medium">Unit</th>
          <th className="py-1 pr-2 font-medium">Change</th>
          <th className="py-1 pr-2 font-medium">{beforeLabel}</th>
          <th className="py-1 font-medium">{afterLabel}</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line-soft">
        {(diff ?? []).map((d) => (
          <tr key={d.id} data-unit-diff={d.id} className={held.has(d.id) ? 'font-semibold' : ''}>
            <td className="py-1 pr-2 font-mono">
              {d.id}
              {held.has(d.id) ? ' (reserved)' : ''}
            </td>
            <td className="py-1 pr-2">{d.change}</td>
            <td className="py-1 pr-2">{describe(d.before)}</td>
            <td className="py-1">{describe(d.after)}</td>
          </tr>
        ))}
        {diff && diff.length === 0 && (
          <tr>
            <td colSpan={4} className="py-2 text-ink-4">
              {empty}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/**
 * Re-affirm a needs-review reservation (operator): shows the per-unit diff of its generation
 * against the node's, and when one of its units is gone, offers the shrink first (the API
 * refuses to re-affirm a reservation holding a unit the node no longer has). After the shrink
 * the dialog goes on to the re-affirm step itself — the reason field and **Re-affirm
 * reservation** — saying what the shrink removed (docs/product.md §6). Re-affirming sends the
 * generation the diff was shown against (`expectedTopologyGen`): if the topology changed again
 * meanwhile (409 topology_changed), the dialog shows the new diff and asks again, so no operator
 * approves a change they did not see.
 */
export function ReaffirmDialog({ reservation: r, onClose }: { reservation: Reservation; onClose: () => void }) {
  const trpc = useTRPC();
  const refreshPage = useRefreshPage();
  const history = useQuery(trpc.nodes.topologyHistory.queryOptions({ nodeId: r.nodeId }));
  const reaffirm = useMutation(trpc.reservations.reaffirm.mutationOptions());
  const shrink = useMutation(trpc.reservations.update.mutationOptions());
  const [reason, setReason] = useState('');
  const [changed, setChanged] = useState(false);
  // The units this dialog's shrink removed: the reservation it shows holds the others now.
  const [removed, setRemoved] = useState<string[]>([]);
  const gens = history.data ?? [];
  const mine = gens.find((g) => g.gen === r.topologyGen)?.units ?? [];
  const current = gens.at(-1)?.units ?? [];
  const diff = diffTopology(mine, current);
  const units = r.reservedUnitIds.filter((u) => !removed.includes(u));
  const held = new Set(units);
  const missing = units.filter((u) => !current.some((c) => c.id === u));
  const mustShrink = missing.length > 0;

  return (
    <FormDialog
      title={`Re-affirm ${r.id}`}
      description={`Written against topology generation ${r.topologyGen}; the node is at ${gens.at(-1)?.gen ?? '…'}. Review what changed, then re-affirm so it grants its units again.`}
      submitLabel={mustShrink ? `Remove ${missing.join(', ')} from the reservation` : 'Re-affirm reservation'}
      submitDisabled={!history.data || (!mustShrink && !reason.trim())}
      onClose={onClose}
      outcome={(done) =>
        done.kind === 'shrunk'
          ? null
          : {
              message: `Re-affirmed ${done.reservation.id} at topology generation ${done.reservation.topologyGen}: it grants ${done.reservation.reservedUnitIds.join(', ')} again.`,
              link: { href: reservationHref(done.reservation.nodeId, done.reservation.id), label: `Open ${done.reservation.id}` },
            }
      }
      onSubmit={async () => {
        if (mustShrink) {
          await shrink.mutateAsync({
            nodeId: r.nodeId,
            reservationId: r.id,
            reservedUnitIds: units.filter((u) => !missing.includes(u)),
            reason: `Units ${missing.join(', ')} left the topology`,
          });
          setRemoved((before) => [...before, ...missing]);
          return { kind: 'shrunk' as const };
        }
        const reservation = await reaffirm.mutateAsync({ nodeId: r.nodeId, reservationId: r.id, reason: reason.trim(), expectedTopologyGen: gens.at(-1)!.gen });
        return { kind: 'reaffirmed' as const, reservation };
      }}
      // A unit gone since the diff was read is the same news as a new generation: read it again.
      isStale={(e) => topologyMovedOn(e) || problemOf(e)?.code === 'unit_missing'}
      onStale={async () => {
        await history.refetch();
        setChanged(true);
        await refreshPage();
      }}
    >
      {(error) => (
        <>
          {changed && (
            <p role="alert" data-testid="topology-changed" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
              The node’s topology changed again while you reviewed it: it is at generation {gens.at(-1)?.gen} now. Review the new differences below, then
              re-affirm again.
            </p>
          )}
          <DiffTable
            offer={offers('node.topology-history')}
            diff={history.data ? diff : null}
            beforeLabel={`Generation ${r.topologyGen}`}
            afterLabel="Now"
            held={held}
            empty="No unit differs."
            testId="topology-diff"
          />
          {removed.length > 0 && (
            <p role="status" data-testid="units-removed" className="rounded-md border border-ok-line bg-ok-soft p-3 text-sm text-ok-ink">
              Removed {removed.join(', ')} from {r.id}; it holds {units.join(', ')} now. Give a reason and re-affirm it.
            </p>
          )}
          {mustShrink ? (
            <p role="status" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
              {missing.join(', ')} {missing.length === 1 ? 'is' : 'are'} no longer on the node, so the reservation cannot be re-affirmed while it holds{' '}
              {missing.length === 1 ? 'it' : 'them'}. Remove {missing.length === 1 ? 'it' : 'them'} from the reservation first; then re-affirm.
            </p>
          ) : (
            <Field label="Reason" hint="(required; recorded in the audit trail)" errors={fieldErrors(error, 'reason')}>
              <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={2} className={inputClass} />
            </Field>
          )}
        </>
      )}
    </FormDialog>
  );
}
