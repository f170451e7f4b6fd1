'use client';

import { Suspense, useState } from 'react';
import { lazyWithTrpc } from '../live/lazy-with-trpc';
import { offers } from '../offers';
import type { ReclaimSchedule } from '../trpc-types';

// Loaded with their data layer when opened (components/live/lazy-with-trpc.tsx), never with the page.
const RescheduleDialog = lazyWithTrpc(() => import('./schedule-dialogs').then((m) => m.RescheduleDialog));
const CancelScheduleDialog = lazyWithTrpc(() => import('./schedule-dialogs').then((m) => m.CancelScheduleDialog));

const button = 'rounded-md border bg-surface px-2.5 py-1 text-xs font-medium whitespace-nowrap';

/**
 * Reschedule… and Cancel schedule… on a pending scheduled reclaim (issue 22), offered where the
 * reservation offers reclaim: the same principals may schedule, move and cancel one. The only
 * client code of the reservation page's schedules list, which the server renders.
 */
export function ScheduleActions({ schedule: s, endsAt }: { schedule: ReclaimSchedule; endsAt?: string }) {
  const [open, setOpen] = useState<'reschedule' | 'cancel' | null>(null);
  const close = () => setOpen(null);
  const units = s.unitIds.join(', ');
  return (
    <span className="flex flex-wrap justify-end gap-2">
      <button
        type="button"
        onClick={() => setOpen('reschedule')}
        aria-label={`Reschedule the reclaim of ${units}…`}
        {...offers('reservation.reschedule')}
        className={`${button} border-line-strong hover:bg-surface-2`}
      >
        Reschedule…
      </button>
      <button
        type="button"
        onClick={() => setOpen('cancel')}
        aria-label={`Cancel the scheduled reclaim of ${units}…`}
        {...offers('reservation.cancel-schedule')}
        className={`${button} border-danger-line text-danger-ink hover:bg-danger-soft`}
      >
        Cancel schedule…
      </button>
      <Suspense fallback={null}>
        {open === 'reschedule' && <RescheduleDialog schedule={s} endsAt={endsAt} onClose={close} />}
        {open === 'cancel' && <CancelScheduleDialog schedule={s} onClose={close} />}
      </Suspense>
    </span>
  );
}
