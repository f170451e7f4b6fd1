'use client';

import type { ReservationAction } from '@/server/policy';
import type { Reservation } from '@/server/reservations/view';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { formatDateTime, formatRelative } from './format';
import { errorMessage } from './problem';
import { ReclaimDialog } from './reclaim-dialog';
import { useTRPC } from './trpc-provider';
import { emptySelection, orderedSelection, pruneSelection, selectRange, selectWhere, toggleUnit, type Selection } from './unit-grid/selection';
import { UnitGrid, UnitLegend } from './unit-grid/unit-grid';
import { unitStyles } from './unit-grid/unit-styles';

const REFRESH_MS = 5_000;

const statusTone: Record<Reservation['status'], string> = {
  active: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-sky-100 text-sky-800',
  'needs-review': 'bg-amber-100 text-amber-900',
  expired: 'bg-slate-100 text-slate-600',
  cancelled: 'bg-slate-100 text-slate-500 line-through',
};

/**
 * The node page (docs/product.md §6): unit grid, reservations panel, VMs on the node, and the reclaim
 * action where the acting org may take it. Refreshes by itself while open.
 */
export function NodeView({ nodeId }: { nodeId: string }) {
  const trpc = useTRPC();
  const node = useQuery({ ...trpc.nodes.get.queryOptions({ nodeId }), refetchInterval: REFRESH_MS });
  const reservations = useQuery({ ...trpc.reservations.listForNode.queryOptions({ nodeId, limit: 500 }), refetchInterval: REFRESH_MS });
  const vms = useQuery({ ...trpc.vms.listForNode.queryOptions({ nodeId, status: 'running' }), refetchInterval: REFRESH_MS });
  const [rawSelection, setSelection] = useState<Selection>(emptySelection);
  const [reclaiming, setReclaiming] = useState<{ reservationId: string; unitIds: string[] } | null>(null);

  const units = useMemo(() => node.data?.units ?? [], [node.data]);
  const order = useMemo(() => units.map((u) => u.id), [units]);
  const selection = pruneSelection(rawSelection, order);
  const selectedIds = orderedSelection(selection, order);

  const actionsByReservation = new Map<string, ReservationAction[]>((reservations.data?.items ?? []).map((r) => [r.reservation.id, r.actions]));
  const canReclaimAny = [...actionsByReservation.values()].some((a) => a.includes('reclaim'));

  // Reclaim acts on one reservation: every selected unit must be held by the same one, and the
  // server must have offered 'reclaim' on it.
  const selectedReservations = new Set(selectedIds.map((id) => units.find((u) => u.id === id)?.reservationId ?? null));
  const target = selectedReservations.size === 1 ? [...selectedReservations][0] : null;
  const reclaimable = Boolean(target && actionsByReservation.get(target)?.includes('reclaim'));
  const hint =
    selectedIds.length === 0
      ? 'Select units to reclaim.'
      : !target || selectedReservations.size > 1
        ? 'Select units of one reservation.'
        : !reclaimable
          ? `You may not reclaim units of ${target}.`
          : `${selectedIds.length} unit${selectedIds.length === 1 ? '' : 's'} of ${target} selected.`;

  if (node.isError) {
    return (
      <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        {errorMessage(node.error)} <Link href="/" className="underline">Back to the fleet</Link>
      </div>
    );
  }
  if (!node.data) return <p className="text-sm text-slate-500">Loading node…</p>;
  const n = node.data;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-slate-500">
            <Link href="/" className="hover:underline">Fleet</Link> / node
          </p>
          <h1 className="text-2xl font-semibold">{n.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            <span className="font-mono">{n.id}</span> · owner <span className="font-mono">{n.ownerOrgId}</span> · {n.units.length} units · topology generation {n.topologyGen}
          </p>
        </div>
        <p className="text-xs text-slate-500" aria-live="polite">
          {node.isFetching ? 'Refreshing…' : `Updated ${formatRelative(new Date(node.dataUpdatedAt).toISOString())}`}
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="units-title">
          <div className="mb-4 flex items-center justify-between">
            <h2 id="units-title" className="font-semibold">Units</h2>
            <p className="text-xs text-slate-500">
              {Object.entries(n.counts)
                .filter(([, c]) => c > 0)
                .map(([s, c]) => `${c} ${unitStyles[s as keyof typeof unitStyles].label.toLowerCase()}`)
                .join(' · ')}
            </p>
          </div>
          <UnitGrid
            units={units}
            selection={canReclaimAny ? selection : undefined}
            onToggle={canReclaimAny ? (id, range) => setSelection(range ? selectRange(selection, order, id) : toggleUnit(selection, id)) : undefined}
            onSelect={canReclaimAny ? setSelection : undefined}
          />
          {canReclaimAny && (
            <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
              <button type="button" onClick={() => setSelection(selectWhere(units, (u) => u.state === 'released' || u.state === 'spot-occupied'))} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
                Select all released
              </button>
              <button type="button" onClick={() => setSelection(emptySelection)} disabled={selectedIds.length === 0} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-50">
                Clear
              </button>
              <span className="flex-1 text-sm text-slate-600" data-testid="selection-hint">{hint}</span>
              <button
                type="button"
                disabled={!reclaimable}
                onClick={() => target && setReclaiming({ reservationId: target, unitIds: selectedIds })}
                className="rounded-md bg-red-600 px-4 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-40"
              >
                Reclaim…
              </button>
            </div>
          )}
          <div className="mt-4 border-t border-slate-100 pt-3">
            <UnitLegend />
          </div>
        </section>

        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="reservations-title">
          <h2 id="reservations-title" className="mb-3 font-semibold">Reservations</h2>
          {reservations.isError ? (
            <p className="text-sm text-red-700">{errorMessage(reservations.error)}</p>
          ) : !reservations.data ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : reservations.data.items.length === 0 ? (
            <p className="text-sm text-slate-500">No reservation on this node is visible to your org.</p>
          ) : (
            <ul className="space-y-3">
              {[...reservations.data.items]
                .sort((a, b) => (a.reservation.startsAt < b.reservation.startsAt ? 1 : a.reservation.startsAt > b.reservation.startsAt ? -1 : 0))
                .map(({ reservation: r }) => (
                <li key={r.id} data-reservation-id={r.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <span className="font-mono font-medium">{r.id}</span>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[r.status]}`}>{r.status}</span>
                  </div>
                  <dl className="mt-2 grid grid-cols-[7rem_1fr] gap-x-2 gap-y-1 text-xs text-slate-700">
                    <dt className="text-slate-500">Units</dt>
                    <dd className="font-mono">{r.reservedUnitIds.join(', ')}</dd>
                    <dt className="text-slate-500">Released</dt>
                    <dd className="font-mono" data-testid="released-units">{r.releasedUnitIds.length ? r.releasedUnitIds.join(', ') : '—'}</dd>
                    <dt className="text-slate-500">Audience</dt>
                    <dd className="font-mono">{r.allowedOrgIds.join(', ')}</dd>
                    <dt className="text-slate-500">Managing orgs</dt>
                    <dd className="font-mono">{r.managingOrgIds.length ? r.managingOrgIds.join(', ') : '—'}</dd>
                    <dt className="text-slate-500">Period</dt>
                    <dd>
                      {formatDateTime(r.startsAt)} → {r.endsAt ? formatDateTime(r.endsAt) : 'open-ended'}
                    </dd>
                    {r.contractRef && (
                      <>
                        <dt className="text-slate-500">Contract</dt>
                        <dd>{r.contractRef}</dd>
                      </>
                    )}
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="vms-title">
        <h2 id="vms-title" className="mb-3 font-semibold">Running VMs you can see</h2>
        {!vms.data ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : vms.data.length === 0 ? (
          <p className="text-sm text-slate-500">No running VM on this node is visible to your org.</p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="vm-table">
            <thead className="text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">VM</th>
                <th className="py-2 pr-4 font-medium">Tier</th>
                <th className="py-2 pr-4 font-medium">Units</th>
                <th className="py-2 pr-4 font-medium">Org</th>
                <th className="py-2 font-medium">Since</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {vms.data.map((vm) => (
                <tr key={vm.id} data-vm-id={vm.id}>
                  <td className="py-2 pr-4 font-mono">{vm.id}</td>
                  <td className="py-2 pr-4">{vm.tier}</td>
                  <td className="py-2 pr-4 font-mono">{vm.unitIds.join(', ')}</td>
                  <td className="py-2 pr-4 font-mono text-slate-600">
                    {vm.orgId ?? (
                      <span className="font-sans text-xs italic text-slate-400" title="Another tenant’s identity is private">
                        another org
                      </span>
                    )}
                  </td>
                  <td className="py-2 text-slate-600" title={formatDateTime(vm.startedAt)}>
                    {formatRelative(vm.startedAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {reclaiming && (
        <ReclaimDialog
          nodeId={nodeId}
          reservationId={reclaiming.reservationId}
          unitIds={reclaiming.unitIds}
          vms={vms.data ?? []}
          onClose={() => setReclaiming(null)}
          onDone={() => setSelection(emptySelection)}
        />
      )}
    </div>
  );
}
