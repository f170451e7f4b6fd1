'use client';

import { formatDateTime, UTC } from './format';
import { wallTimeToIso } from './local-time';
import { useTimeZone } from './time-zone';
import { Field, inputClass } from './ui/form-dialog';

/**
 * A date-time field of a dialog (issue 23, docs/product.md §6 "Time on screen"): the value is a
 * wall time in the page's zone — UTC, or the zone the person picked — never silently the
 * browser's, and the label says which ("Ends at (Europe/Berlin)"); outside UTC the instant it
 * means shows under it in UTC. `toSend` turns the value into the instant to send.
 */
export function DateTimeField(props: { label: string; value: string; onChange: (wall: string) => void; errors?: string[]; testId?: string }) {
  const { zone } = useTimeZone();
  const iso = props.value ? wallTimeToIso(props.value, zone) : null;
  return (
    <Field label={`${props.label} (${zone})`} errors={props.errors}>
      <input
        type="datetime-local"
        required
        data-testid={props.testId}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className={inputClass}
      />
      {iso && zone !== UTC && <span className="mt-1 block text-xs font-normal text-ink-4">That is {formatDateTime(iso, UTC)}.</span>}
    </Field>
  );
}

/** A field's wall time as the instant to send, read in `zone`; a value that is no date is sent as it is, for the server to name. */
export const toSend = (wall: string, zone: string): string => wallTimeToIso(wall, zone) ?? wall;
