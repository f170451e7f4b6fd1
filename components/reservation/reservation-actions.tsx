'use client';

import { Suspense, useState } from 'react';
import { CancelReservationDialog, EditReservationDialog, ReaffirmDialog, ReclaimDialog, ReleaseDialog } from '../lazy-dialogs';
import type { NodeData, NodeVm, Reservation, ReservationAction } from '../trpc-types';
import { offers } from '../offers';

type Open = ReservationAction | null;

/**
 * The reservation page's actions (docs/product.md §6): the ones the node page offers on this
 * reservation — the server's `actions`, as on the node page's panel — with the same dialogs.
 * Without the node page's grid to select from, Release… offers the reservation's idle reserved
 * units and Reclaim… its released ones; the node page picks single units.
 */
export function ReservationActions({
  reservation: r,
  actions,
  node,
  vms,
}: {
  reservation: Reservation;
  actions: ReservationAction[];
  node: NodeData | undefined;
  vms: NodeVm[];
}) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const mine = new Set(r.reservedUnitIds);
  const idle = (node?.units ?? []).filter((u) => mine.has(u.id) && u.state === 'reserved').map((u) => u.id);
  const released = r.releasedUnitIds;
  const buttons: { action: ReservationAction; label: string; units?: string[]; none?: string; danger?: boolean }[] = [
    { action: 'release', label: 'Release…', units: idle, none: 'No idle reserved unit to release.' },
    { action: 'reclaim', label: 'Reclaim…', units: released, none: 'No released unit to reclaim.', danger: true },
    { action: 'edit', label: 'Edit…' },
    { action: 'reaffirm', label: 'Re-affirm…' },
    { action: 'cancel', label: 'Cancel reservation…', danger: true },
  ];
  const offered = buttons.filter((b) => actions.includes(b.action));
  if (offered.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="reservation-actions" {...offers('reservation.actions')}>
      {offered.map((b) => {
        const empty = b.units !== undefined && b.units.length === 0;
        return (
          <button
            key={b.action}
            type="button"
            disabled={empty}
            title={empty ? b.none : b.units ? b.units.join(', ') : undefined}
            onClick={() => setOpen(b.action)}
            className={`rounded-md border px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-40 ${b.danger ? 'border-danger-line bg-surface text-danger-ink hover:bg-danger-soft' : 'border-line-strong bg-surface hover:bg-surface-2'}`}
          >
            {b.label}
          </button>
        );
      })}
      <Suspense fallback={null}>
        {open === 'release' && <ReleaseDialog nodeId={r.nodeId} reservationId={r.id} unitIds={idle} onClose={close} onDone={() => {}} />}
        {open === 'reclaim' && (
          <ReclaimDialog nodeId={r.nodeId} reservationId={r.id} unitIds={released} vms={vms} endsAt={r.endsAt} onClose={close} onDone={() => {}} />
        )}
        {open === 'edit' && <EditReservationDialog reservation={r} onClose={close} />}
        {open === 'reaffirm' && <ReaffirmDialog reservation={r} onClose={close} />}
        {open === 'cancel' && <CancelReservationDialog reservation={r} onClose={close} />}
      </Suspense>
    </div>
  );
}
