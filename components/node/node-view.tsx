'use client';

import Link from 'next/link';
import { Suspense, useState } from 'react';
import { formatRelative } from '../format';
import { StaleBanner } from '../live/stale-banner';
import { PageRefreshContext, useAutoRefresh } from '../live/auto-refresh';
import { lazyWithTrpc } from '../live/lazy-with-trpc';
import { useLastGood } from '../live/use-last-good';
import { CancelReservationDialog, EditReservationDialog, ReaffirmDialog, ReclaimDialog, ReleaseDialog } from '../lazy-dialogs';
import type { Fetched, NodeData, NodeVm, ReservationAction, RouterOutputs } from '../trpc-types';
import { emptySelection, type Selection } from '../unit-grid/selection';
import { ReservationsPanel, type ReservationDialog } from './reservations-panel';
import { UnitPanel, type UnitAction } from './unit-panel';
import { VmTable } from './vm-table';
import { TimelineSection } from '../timeline/timeline-section';
import { offers } from '../offers';
import { OrgIds } from '../org-names';
import { Id } from '../unit-ids';

const REFRESH_MS = 5_000;
// Dialogs load on demand, and with them the data layer they call the server through
// (lazyWithTrpc, components/lazy-dialogs.ts): the first paint needs only the grid, rendered from
// the server's props.
const ReserveDialog = lazyWithTrpc(() => import('../reservation-dialogs').then((m) => m.ReserveDialog));
const TopologyDialog = lazyWithTrpc(() => import('../topology-dialogs').then((m) => m.TopologyDialog));
const TerminateVmDialog = lazyWithTrpc(() => import('../vm-dialogs').then((m) => m.TerminateVmDialog));

type OpenDialog = UnitAction | ReservationDialog | { kind: 'topology' } | { kind: 'terminate'; vm: NodeVm };
/**
 * The node page (docs/product.md §6): unit grid, reservations panel, VMs on the node, and the
 * actions the acting org may take. Rendered from what the server page read (the first HTML
 * holds the grid); while open it refreshes by re-rendering that page every REFRESH_MS, and at
 * once after a dialog changed something (useRefreshPage). Selection and open dialog are
 * client state and survive a refresh.
 */
export function NodeView(props: {
  nodeId: string;
  node: Fetched<NodeData>;
  actions: Fetched<RouterOutputs['nodes']['actions']>;
  reservations: Fetched<RouterOutputs['reservations']['listForNode']>;
  vms: Fetched<NodeVm[]>;
  /** When the server read them (ms since the epoch). */
  readAt: number;
}) {
  const { nodeId, readAt } = props;
  // Live: at once when a change on this node commits (the acting org's stream), polling meanwhile.
  const { refreshing, refresh } = useAutoRefresh(REFRESH_MS, (c) => c.nodeId === nodeId);
  // A failed refresh keeps what the page shows (and an open dialog), its error beside it.
  const node = useLastGood(props.node, nodeId);
  const actions = useLastGood(props.actions, nodeId);
  const reservations = useLastGood(props.reservations, nodeId);
  const vms = useLastGood(props.vms, nodeId);
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const [open, setOpen] = useState<OpenDialog | null>(null);
  const close = () => setOpen(null);

  if (!node.data) {
    return (
      <div className="rounded-md border border-danger-line bg-danger-soft p-4 text-sm text-danger-ink">
        {node.error}{' '}
        <Link href="/" className="underline">
          Back to the fleet
        </Link>
      </div>
    );
  }
  const n = node.data;
  const nodeActions = actions.data ?? [];
  // A refresh that failed while the page holds earlier data: said once, above it all.
  const staleError = [node, actions, reservations, vms].find((f) => f.error && f.data)?.error;
  const actionsByReservation = new Map<string, ReservationAction[]>((reservations.data?.items ?? []).map((r) => [r.reservation.id, r.actions]));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-ink-4">
            <Link href="/" className="hover:underline">
              Fleet
            </Link>{' '}
            / node
          </p>
          <h1 className="text-2xl font-semibold break-words" {...offers('node.page')}>
            {n.name}
          </h1>
          <p className="mt-1 text-sm text-ink-3">
            <span className="font-mono" data-testid="node-id">
              <Id id={n.id} />
            </span>{' '}
            · owner <OrgIds ids={[n.ownerOrgId]} names={n.orgNames} /> · {n.units.length} units · topology generation {n.topologyGen}
          </p>
        </div>
        {nodeActions.includes('changeTopology') && (
          <button
            type="button"
            onClick={() => setOpen({ kind: 'topology' })}
            {...offers('node.change-topology')}
            className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm font-medium hover:bg-surface-2"
          >
            Change topology…
          </button>
        )}
        <p className="text-xs text-ink-4" aria-live="polite" suppressHydrationWarning>
          {refreshing ? 'Refreshing…' : `Updated ${formatRelative(new Date(readAt).toISOString())}`}
        </p>
      </div>
      {staleError && <StaleBanner error={staleError} what="the node" />}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <UnitPanel
          nodeId={nodeId}
          units={n.units}
          counts={n.counts}
          actionsByReservation={actionsByReservation}
          canReserve={nodeActions.includes('createReservation')}
          selection={selection}
          onSelectionChange={setSelection}
          onAction={setOpen}
        />
        <ReservationsPanel items={reservations.data?.items} error={reservations.data ? null : (reservations.error ?? null)} onOpen={setOpen} />
      </div>

      <VmTable vms={vms.data} onTerminate={(vm) => setOpen({ kind: 'terminate', vm })} />

      <TimelineSection nodeId={nodeId} />

      {/* A dialog's change refreshes through the page's own refresh: "Refreshing…" until it lands. */}
      <PageRefreshContext.Provider value={refresh}>
        <Suspense fallback={null}>
          {open?.kind === 'reclaim' && (
            <ReclaimDialog
              nodeId={nodeId}
              reservationId={open.reservationId}
              unitIds={open.unitIds}
              vms={vms.data ?? []}
              endsAt={reservations.data?.items.find((i) => i.reservation.id === open.reservationId)?.reservation.endsAt}
              onClose={close}
              onDone={() => setSelection(emptySelection)}
            />
          )}
          {open?.kind === 'reserve' && <ReserveDialog nodeId={nodeId} unitIds={open.unitIds} onClose={close} onDone={() => setSelection(emptySelection)} />}
          {open?.kind === 'release' && (
            <ReleaseDialog
              nodeId={nodeId}
              reservationId={open.reservationId}
              unitIds={open.unitIds}
              onClose={close}
              onDone={() => setSelection(emptySelection)}
            />
          )}
          {open?.kind === 'edit' && <EditReservationDialog reservation={open.reservation} onClose={close} />}
          {open?.kind === 'cancel' && <CancelReservationDialog reservation={open.reservation} onClose={close} />}
          {open?.kind === 'reaffirm' && <ReaffirmDialog reservation={open.reservation} onClose={close} />}
          {open?.kind === 'topology' && <TopologyDialog node={n} onClose={close} />}
          {open?.kind === 'terminate' && <TerminateVmDialog vm={open.vm} onClose={close} />}
        </Suspense>
      </PageRefreshContext.Provider>
    </div>
  );
}
