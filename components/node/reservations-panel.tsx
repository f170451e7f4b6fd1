'use client';

import Link from 'next/link';
import { errorMessage } from '../problem';
import { formatDateTime } from '../format';
import { reservationHref } from '../links';
import { StatusBadge } from '../reservation/status-badge';
import type { ReservationItem } from '../trpc-types';

/** The node page's reservations panel: the reservations on the node the acting org may see, latest start first. */
export function ReservationsPanel({ items, error }: { items: ReservationItem[] | undefined; error: unknown }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="reservations-title">
      <h2 id="reservations-title" className="mb-3 font-semibold">Reservations</h2>
      {error ? (
        <p className="text-sm text-red-700">{errorMessage(error)}</p>
      ) : !items ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-500">No reservation on this node is visible to your org.</p>
      ) : (
        <ul className="space-y-3">
          {[...items]
            .sort((a, b) => (a.reservation.startsAt < b.reservation.startsAt ? 1 : a.reservation.startsAt > b.reservation.startsAt ? -1 : 0))
            .map(({ reservation: r }) => (
              <li key={r.id} data-reservation-id={r.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <Link href={reservationHref(r.nodeId, r.id)} className="font-mono font-medium text-indigo-700 hover:underline">
                    {r.id}
                  </Link>
                  <StatusBadge status={r.status} />
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
  );
}
