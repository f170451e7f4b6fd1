'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { lazy, Suspense, useState } from 'react';
import { formatRelative } from '../format';
import { errorMessage } from '../problem';
import { nodePageQueryInputs } from '../queries';
import { useTRPC } from '../trpc-provider';
import type { NodeVm, ReservationAction } from '../trpc-types';
import { emptySelection, type Selection } from '../unit-grid/selection';
import { ReservationsPanel, type ReservationDialog } from './reservations-panel';
import { UnitPanel, type UnitAction } from './unit-panel';
import { VmTable } from './vm-table';

const REFRESH_MS = 5_000;
// Dialogs load on demand: the first paint needs only the grid. React.lazy rather than
// next/dynamic: they never render on the server, and next/dynamic's SSR preloading costs
// every page that uses it ~1.5 kB of first-load JS.
const ReclaimDialog = lazy(() => import('../reclaim-dialog').then((m) => ({ default: m.ReclaimDialog })));
const ReserveDialog = lazy(() => import('../reservation-dialogs').then((m) => ({ default: m.ReserveDialog })));
const ReleaseDialog = lazy(() => import('../reservation-dialogs').then((m) => ({ default: m.ReleaseDialog })));
const EditReservationDialog = lazy(() => import('../reservation-dialogs').then((m) => ({ default: m.EditReservationDialog })));
const CancelReservationDialog = lazy(() => import('../reservation-dialogs').then((m) => ({ default: m.CancelReservationDialog })));
const ReaffirmDialog = lazy(() => import('../topology-dialogs').then((m) => ({ default: m.ReaffirmDialog })));
const TopologyDialog = lazy(() => import('../topology-dialogs').then((m) => ({ default: m.TopologyDialog })));
const TerminateVmDialog = lazy(() => import('../vm-dialogs').then((m) => ({ default: m.TerminateVmDialog })));

type OpenDialog = UnitAction | ReservationDialog | { kind: 'topology' } | { kind: 'terminate'; vm: NodeVm };
/** Stop polling what failed: an unknown node stays "not found" instead of flickering. */
const refetchUnlessFailed = (q: { state: { status: string } }) => (q.state.status === 'error' ? false : REFRESH_MS);

/**
 * The node page (docs/product.md §6): unit grid, reservations panel, VMs on the node, and the
 * actions the acting org may take. Its data is prefetched on the server (the first HTML holds
 * the grid) and refreshes by itself while open.
 */
export function NodeView({ nodeId }: { nodeId: string }) {
  const trpc = useTRPC();
  const inputs = nodePageQueryInputs(nodeId);
  const node = useQuery({ ...trpc.nodes.get.queryOptions(inputs.node), refetchInterval: refetchUnlessFailed });
  const reservations = useQuery({ ...trpc.reservations.listForNode.queryOptions(inputs.reservations), refetchInterval: refetchUnlessFailed });
  const vms = useQuery({ ...trpc.vms.listForNode.queryOptions(inputs.vms), refetchInterval: refetchUnlessFailed });
  const nodeActions = useQuery(trpc.nodes.actions.queryOptions(inputs.node));
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const [open, setOpen] = useState<OpenDialog | null>(null);
  const close = () => setOpen(null);

  if (node.isError) {
    return (
      <div className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        {errorMessage(node.error)} <Link href="/" className="underline">Back to the fleet</Link>
      </div>
    );
  }
  if (!node.data) return <p className="text-sm text-slate-500">Loading node…</p>;
  const n = node.data;
  const actionsByReservation = new Map<string, ReservationAction[]>((reservations.data?.items ?? []).map((r) => [r.reservation.id, r.actions]));

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
        {nodeActions.data?.includes('changeTopology') && (
          <button type="button" onClick={() => setOpen({ kind: 'topology' })} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50">
            Change topology…
          </button>
        )}
        <p className="text-xs text-slate-500" aria-live="polite" suppressHydrationWarning>
          {node.isFetching ? 'Refreshing…' : `Updated ${formatRelative(new Date(node.dataUpdatedAt).toISOString())}`}
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <UnitPanel
          units={n.units}
          counts={n.counts}
          actionsByReservation={actionsByReservation}
          canReserve={nodeActions.data?.includes('createReservation') ?? false}
          selection={selection}
          onSelectionChange={setSelection}
          onAction={setOpen}
        />
        <ReservationsPanel items={reservations.data?.items} error={reservations.isError ? reservations.error : null} onOpen={setOpen} />
      </div>

      <VmTable vms={vms.data} onTerminate={(vm) => setOpen({ kind: 'terminate', vm })} />

      <Suspense fallback={null}>
        {open?.kind === 'reclaim' && (
          <ReclaimDialog nodeId={nodeId} reservationId={open.reservationId} unitIds={open.unitIds} vms={vms.data ?? []} onClose={close} onDone={() => setSelection(emptySelection)} />
        )}
        {open?.kind === 'reserve' && <ReserveDialog nodeId={nodeId} unitIds={open.unitIds} onClose={close} />}
        {open?.kind === 'release' && <ReleaseDialog nodeId={nodeId} reservationId={open.reservationId} unitIds={open.unitIds} onClose={close} />}
        {open?.kind === 'edit' && <EditReservationDialog reservation={open.reservation} onClose={close} />}
        {open?.kind === 'cancel' && <CancelReservationDialog reservation={open.reservation} onClose={close} />}
        {open?.kind === 'reaffirm' && <ReaffirmDialog reservation={open.reservation} onClose={close} />}
        {open?.kind === 'topology' && <TopologyDialog node={n} onClose={close} />}
        {open?.kind === 'terminate' && <TerminateVmDialog vm={open.vm} onClose={close} />}
      </Suspense>
    </div>
  );
}
