'use client';

import { DateTimeField } from './date-time-field';
import { formatDateTime } from './format';
import { wallTimeToIso } from './local-time';
import { fieldErrors } from './problem-words';

/**
 * The time of a scheduled reclaim (issue 22), as the reclaim dialog's "Schedule…" and the
 * reservation page's Reschedule… both ask for it: a date-time field in the page's zone, labelled
 * with it (issue 23), and what the form can tell before sending (docs/product.md §6: a form
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
 * `wall` (a datetime-local value, read in `zone`) as the ISO instant to send, or a
 * ScheduleTimeProblem thrown for what is wrong with it (its times said in `zone`).
 * @param endsAt the reservation's end, when it has one and the page knows it.
 */
export function scheduleTimeToSend(wall: string, zone: string, endsAt: string | undefined, now: number = Date.now()): string {
  const iso = wall ? wallTimeToIso(wall, zone) : null;
  if (!iso) throw new ScheduleTimeProblem('Reclaim at is required: pick a date and a time.');
  const at = Date.parse(iso);
  if (at <= now) throw new ScheduleTimeProblem('Reclaim at must be in the future.');
  if (at > now + MAX_AHEAD_MS)
    throw new ScheduleTimeProblem(
      `Reclaim at must be at most 30 days ahead (${formatDateTime(new Date(now + MAX_AHEAD_MS).toISOString(), zone)} at the latest).`,
    );
  if (endsAt && at >= Date.parse(endsAt)) throw new ScheduleTimeProblem(`Reclaim at must be before the reservation ends (${formatDateTime(endsAt, zone)}).`);
  return iso;
}

/** The sentences of a failed schedule that belong beside its time field. */
export function scheduleTimeErrors(error: unknown): string[] {
  // The server's refusal names the field as its `errors[]` (422 invalid_schedule_time, or 400 for a malformed one).
  return error instanceof ScheduleTimeProblem ? [error.message] : fieldErrors(error, 'at');
}

/** The field: "Reclaim at (UTC)", in the page's zone, and the time in UTC under it when that zone is another. */
export function ScheduleTimeField({ value, onChange, error }: { value: string; onChange: (wall: string) => void; error: unknown }) {
  return <DateTimeField label="Reclaim at" value={value} onChange={onChange} errors={scheduleTimeErrors(error)} testId="schedule-at" />;
}
