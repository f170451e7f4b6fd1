'use client';

import Link from 'next/link';
import { reservationHref } from '../links';
import { OrgIds } from '../org-names';
import { StatusBadge } from '../reservation/status-badge';
import type { Reservation, ReservationItem } from '../trpc-types';
import { offers } from '../offers';
import { Id, UnitIds } from '../unit-ids';
import { Time } from '../time-zone';

/** What a reservation's buttons open (the node view shows the dialog). */
export type ReservationDialog = { kind: 'edit' | 'cancel' | 'reaffirm'; reservation: Reservation };

const buttons = [
  { action: 'edit', label: 'Edit…', offer: offers('node.edit-reservation') },
  { action: 'cancel', label: 'Cancel reservation…', offer: offers('node.cancel-reservation') },
  { action: 'reaffirm', label: 'Re-affirm…', offer: offers('node.reaffirm') },
] as const;

/**
 * The node page's reservations panel: the reservations on the node the acting org may see,
 * latest start first, each with the buttons of the actions the server offers on it.
 */
export function ReservationsPanel({
  items,
  error,
  onOpen,
}: {
  items: ReservationItem[] | undefined;
  error: string | null;
  onOpen: (d: ReservationDialog) => void;
}) {
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby="reservations-title" {...offers('node.reservations-panel')}>
      <h2 id="reservations-title" className="mb-3 font-semibold">
        Reservations
      </h2>
      {error ? (
        <p className="text-sm text-danger">{error}</p>
      ) : !items ? (
        <p className="text-sm text-ink-4">Loading…</p>
      ) : items.length === 0 ? (
        <p className="text-sm text-ink-4">No reservation on this node is visible to your org.</p>
      ) : (
        <ul className="space-y-3">
          {[...items]
            .sort((a, b) => (a.reservation.startsAt < b.reservation.startsAt ? 1 : a.reservation.startsAt > b.reservation.startsAt ? -1 : 0))
            .map(({ reservation: r, actions, orgNames }) => (
              <li key={r.id} data-reservation-id={r.id} className="rounded-lg border border-line p-3 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <Link href={reservationHref(r.nodeId, r.id)} className="min-w-0 font-mono font-medium text-accent-ink hover:underline">
                    <Id id={r.id} />
                  </Link>
                  <StatusBadge status={r.status} />
                </div>
                <dl className="mt-2 grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-2 gap-y-1 text-xs text-ink-2">
                  <dt className="text-ink-4">Units</dt>
                  <dd className="font-mono">
                    <UnitIds ids={r.reservedUnitIds} />
                  </dd>
                  <dt className="text-ink-4">Released</dt>
                  <dd className="font-mono" data-testid="released-units">
                    {r.releasedUnitIds.length ? <UnitIds ids={r.releasedUnitIds} /> : '—'}
                  </dd>
                  <dt className="text-ink-4">Audience</dt>
                  <dd>
                    <OrgIds ids={r.allowedOrgIds} names={orgNames} />
                  </dd>
                  <dt className="text-ink-4">Managing orgs</dt>
                  <dd>
                    <OrgIds ids={r.managingOrgIds} names={orgNames} />
                  </dd>
                  <dt className="text-ink-4">Period</dt>
                  <dd>
                    <Time iso={r.startsAt} /> → {r.endsAt ? <Time iso={r.endsAt} /> : 'open-ended'}
                  </dd>
                  {r.contractRef && (
                    <>
                      <dt className="text-ink-4">Contract</dt>
                      <dd>{r.contractRef}</dd>
                    </>
                  )}
                </dl>
                {buttons.some((b) => actions.includes(b.action)) && (
                  <div className="mt-2 flex flex-wrap gap-2">
                    {buttons
                      .filter((b) => actions.includes(b.action))
                      .map((b) => (
                        <button
                          key={b.action}
                          type="button"
                          aria-label={`${b.label.replace('…', '')} ${r.id}…`}
                          onClick={() => onOpen({ kind: b.action, reservation: r })}
                          className={`rounded-md border px-2.5 py-1 text-xs font-medium ${b.action === 'cancel' ? 'border-danger-line text-danger-ink hover:bg-danger-soft' : 'border-line-strong hover:bg-surface-2'}`}
                        >
                          {b.label}
                        </button>
                      ))}
                  </div>
                )}
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
