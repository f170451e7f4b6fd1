import { UTC } from './format';
import { LocalZoneField } from './time-zone';

const pressed = 'bg-surface-3 font-medium text-ink';

/**
 * The header's time-zone preference (issue 23, docs/product.md §6 "Time on screen"): UTC, or
 * the browser's zone. A server-rendered form: `action` (passed in by the console layout, since
 * components/ never imports app/) remembers the choice in a cookie and the page renders again in
 * it; the only script is the hidden field that reads the browser's zone.
 */
export function TimeZoneSwitch({ zone, action }: { zone: string; action: (formData: FormData) => Promise<void> }) {
  const utc = zone === UTC;
  return (
    <form
      action={action}
      aria-label="Show times in"
      className="flex shrink-0 overflow-hidden whitespace-nowrap rounded-md border border-line-strong text-xs text-ink-3"
    >
      <LocalZoneField />
      <button type="submit" name="show" value="utc" aria-pressed={utc} className={`px-2 py-1 hover:bg-surface-2 ${utc ? pressed : ''}`}>
        UTC
      </button>
      <button
        type="submit"
        name="show"
        value="local"
        aria-pressed={!utc}
        title={utc ? 'Show times in this browser’s time zone' : zone}
        className={`border-l border-line-strong px-2 py-1 hover:bg-surface-2 ${utc ? '' : pressed}`}
      >
        Local time
      </button>
    </form>
  );
}
