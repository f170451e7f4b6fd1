'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../format';
import { useRefreshPage } from '../live/use-refresh-page';
import { isoToWallTime } from '../local-time';
import { problemOf } from '../problem';
import { ScheduleTimeField, scheduleTimeToSend } from '../schedule-time';
import { useTRPC } from '../trpc-provider';
import type { ReclaimSchedule } from '../trpc-types';
import { FormDialog } from '../ui/form-dialog';
import { Time, useTimeZone } from '../time-zone';

/**
 * Reschedule and cancel a pending scheduled reclaim (issue 22), from the reservation page's
 * list. Each calls one procedure; the spot tenants on its units are told again by the server.
 * A schedule that stopped being pending meanwhile (it ran, lapsed, or another person cancelled
 * it: 409 schedule_not_pending) is said in words, and the page behind reads it again.
 */

/** Refreshes the page behind the dialog when the schedule is no longer what it showed, then fails as before. */
function useRefreshWhenGone() {
  const refreshPage = useRefreshPage();
  return async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (problemOf(e)?.code === 'schedule_not_pending') void refreshPage();
      throw e;
    }
  };
}

const unitsOf = (s: ReclaimSchedule) => s.unitIds.join(', ');

export function RescheduleDialog({ schedule: s, endsAt, onClose }: { schedule: ReclaimSchedule; endsAt?: string; onClose: () => void }) {
  const trpc = useTRPC();
  const reschedule = useMutation(trpc.scheduledReclaims.reschedule.mutationOptions());
  const guarded = useRefreshWhenGone();
  const { zone } = useTimeZone();
  const [at, setAt] = useState(() => isoToWallTime(s.at, zone));
  return (
    <FormDialog
      title={`Reschedule the reclaim of ${unitsOf(s)}`}
      description={`It runs at ${formatDateTime(s.at, zone)} now. The tenants of the spot VMs on these units are told the new time.`}
      submitLabel="Reschedule the reclaim"
      onClose={onClose}
      outcome={(after) => ({
        message: `Rescheduled the reclaim of ${unitsOf(after)} from ${formatDateTime(s.at, zone)} to ${formatDateTime(after.at, zone)}; the tenants of the spot VMs on them were told.`,
      })}
      onSubmit={() =>
        guarded(() => reschedule.mutateAsync({ nodeId: s.nodeId, reservationId: s.reservationId, scheduleId: s.id, at: scheduleTimeToSend(at, zone, endsAt) }))
      }
    >
      {(error) => <ScheduleTimeField value={at} onChange={setAt} error={error} />}
    </FormDialog>
  );
}

export function CancelScheduleDialog({ schedule: s, onClose }: { schedule: ReclaimSchedule; onClose: () => void }) {
  const trpc = useTRPC();
  const cancel = useMutation(trpc.scheduledReclaims.cancel.mutationOptions());
  const guarded = useRefreshWhenGone();
  const { zone } = useTimeZone();
  return (
    <FormDialog
      tone="danger"
      title={`Cancel the scheduled reclaim of ${unitsOf(s)}`}
      submitLabel="Cancel the scheduled reclaim"
      onClose={onClose}
      outcome={() => ({
        message: `Cancelled the reclaim of ${unitsOf(s)} that was to run at ${formatDateTime(s.at, zone)}; the tenants of the spot VMs on them were told it is off.`,
      })}
      onSubmit={() => guarded(() => cancel.mutateAsync({ nodeId: s.nodeId, reservationId: s.reservationId, scheduleId: s.id }))}
    >
      {() => (
        <div data-testid="cancel-schedule-consequences" className="space-y-1 text-sm">
          <p>
            Nothing is reclaimed at <Time iso={s.at} />: <span className="font-mono">{unitsOf(s)}</span> stay as they are, and the spot VMs on them keep
            running. Their tenants are told that the reclaim is off.
          </p>
          <p>The schedule stays on this page as cancelled. You can still reclaim these units now, or schedule a new reclaim, from Reclaim….</p>
        </div>
      )}
    </FormDialog>
  );
}
