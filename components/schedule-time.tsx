'use client';

import { formatDateTime } from './format';
import { browserTimeZone, localInputToIso } from './local-time';
import { fieldErrors } from './problem-words';
import { Field, inputClass } from './ui/form-dialog';

/**
 * The time of a scheduled reclaim (issue 22), as the reclaim dialog's "Schedule…" and the
 * reservation page's Reschedule… both ask for it: a datetime-local in the browser's zone, the
 * zone said beside it, and what the form can tell before sending (docs/product.md §6: a form
 * checks what it can). The server has the last word: `at` in the future, at most 30 days ahead,
 * before the reservation's end (422 invalid_schedule_time), said beside the field.
 */

/** How far ahead a reclaim may be scheduled (docs/product.md §5.6). */
const MAX_AHEAD_MS = 30 * 86_400_000;

/** A time the form refused before sending: said beside the field, as the server's refusal would be. */
export class ScheduleTimeProblem extends Error {
  override name = 'ScheduleTimeProblem';
}

/**
 * `local` (a datetime-local value) as the ISO instant to send, or a ScheduleTimeProblem thrown
 * for what is wrong with it.
 * @param endsAt the reservation's end, when it has one and the page knows it.
 */
export function scheduleTimeToSend(local: string, endsAt: string | undefined, now: number = Date.now()): string {
  const iso = local ? localInputToIso(local) : null;
  if (!iso) throw new ScheduleTimeProblem('Reclaim at is required: pick a date and a time.');
  const at = Date.parse(iso);
  if (at <= now) throw new ScheduleTimeProblem('Reclaim at must be in the future.');
  if (at > now + MAX_AHEAD_MS)
    throw new ScheduleTimeProblem(`Reclaim at must be at most 30 days ahead (${formatDateTime(new Date(now + MAX_AHEAD_MS).toISOString())} at the latest).`);
  if (endsAt && at >= Date.parse(endsAt)) throw new ScheduleTimeProblem(`Reclaim at must be before the reservation ends (${formatDateTime(endsAt)}).`);
  return iso;
}

/** The sentences of a failed schedule that belong beside its time field. */
export function scheduleTimeErrors(error: unknown): string[] {
  // The server's refusal names the field as its `errors[]` (422 invalid_schedule_time, or 400 for a malformed one).
  return error instanceof ScheduleTimeProblem ? [error.message] : fieldErrors(error, 'at');
}

/** The field: "Reclaim at", the picker with the browser's zone beside it, and the time in UTC when that zone is another. */
export function ScheduleTimeField({ value, onChange, error }: { value: string; onChange: (local: string) => void; error: unknown }) {
  const zone = browserTimeZone();
  const iso = value ? localInputToIso(value) : null;
  return (
    <Field label="Reclaim at" hint="(in your time zone)" errors={scheduleTimeErrors(error)}>
      <span className="flex flex-wrap items-center gap-2">
        <span className="w-full max-w-64">
          <input type="datetime-local" required value={value} onChange={(e) => onChange(e.target.value)} className={inputClass} />
        </span>
        <span data-testid="schedule-zone" className="rounded bg-surface-3 px-2 py-1 text-xs font-normal text-ink-2">
          {zone}
        </span>
      </span>
      {iso && zone !== 'UTC' && <span className="mt-1 block text-xs font-normal text-ink-4">That is {formatDateTime(iso)}.</span>}
    </Field>
  );
}
