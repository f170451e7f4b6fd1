/**
 * A list page's download of its export (docs/product.md §5.8 "Exports"): a plain `<form
 * method="get">` to the console's download route (`/exports/<list>`), so it needs no client
 * JS — the browser saves the answer, which comes as an attachment, and stays on the page. It
 * sends the page's filters as they are, and a window: the page's own since and until when it
 * has both, else two UTC days (by default the last 7), at most 31 days apart.
 */

/** The lists a console page downloads. */
export type ExportList = 'audit' | 'vms' | 'reservations';

/**
 * A download the route refused and sent back here (server/exports/console-route.ts): the refusal
 * by name and the days the user had chosen, read from the page's URL.
 */
export type ExportRefused = { reason: string; since?: string; until?: string };

/** The page's words for a refusal the route names (server/exports/window.ts `exportRefusals`); any other: `invalid`. */
function refusalWords(reason: string, ownWindow: boolean): string {
  const shorten = ownWindow ? "narrow the page's Since–Until window above" : 'choose a To day at most 31 days after From';
  switch (reason) {
    case 'window-too-long':
      return `A download covers at most 31 days: ${shorten}, or download in parts.`;
    case 'window-empty':
      return ownWindow ? "The page's Until is not after its Since: change the window above." : 'To is before From: choose a To day on or after the From day.';
    case 'since-missing':
    case 'until-missing':
      return 'Choose both days, From and To.';
    default:
      return 'The download was refused: a filter or a day is not one a download takes. Change it and try again.';
  }
}

/** The refused download a page's URL names, if any (the route's `exportError`, `exportSince`, `exportUntil`). */
export function readExportRefused(params: Readonly<Record<string, string | string[] | undefined>>): ExportRefused | undefined {
  const first = (name: string) => {
    const raw = params[name];
    return Array.isArray(raw) ? raw[0] : raw;
  };
  const reason = first('exportError');
  if (!reason) return undefined;
  return { reason, since: first('exportSince'), until: first('exportUntil') };
}

const inputClass = 'mt-1 block rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm';
const DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-12-03`: a date input's value, as a UTC day. */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The day the user had chosen, if it is one a date input takes; else the default. */
function chosenDay(value: string | undefined, fallback: string): string {
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : fallback;
}

/**
 * @param filters the page's filters (verb input fields, as its URL names them); since and until among them when it has them.
 * @param now the page's clock: the default window's last day.
 * @param refused a download the route sent back (`readExportRefused`): said beside the fields, which keep the user's days.
 */
export function ExportDownload({
  list,
  filters,
  now,
  refused,
}: {
  list: ExportList;
  filters: Readonly<Record<string, string | undefined>>;
  now: Date;
  refused?: ExportRefused;
}) {
  const { since, until, ...rest } = filters;
  const ownWindow = since !== undefined && until !== undefined;
  const id = (name: string) => `export-${list}-${name}`;
  const problem = refused ? refusalWords(refused.reason, ownWindow) : undefined;
  return (
    <form method="get" action={`/exports/${list}`} aria-labelledby={id('title')} className="mt-6 flex flex-wrap items-end gap-2 border-t border-line pt-4">
      <h2 id={id('title')} className="w-full text-sm font-semibold text-ink">
        Download
      </h2>
      {Object.entries(rest).map(([name, value]) => (value === undefined || value === '' ? null : <input key={name} type="hidden" name={name} value={value} />))}
      {ownWindow ? (
        <>
          <input type="hidden" name="since" value={since} />
          <input type="hidden" name="until" value={until} />
        </>
      ) : (
        <>
          <div className="text-sm text-ink-2">
            <label htmlFor={id('since')}>From (UTC day)</label>
            <input
              id={id('since')}
              type="date"
              name="since"
              required
              defaultValue={chosenDay(refused?.since, utcDay(new Date(now.getTime() - 6 * DAY_MS)))}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? id('problem') : undefined}
              className={inputClass}
            />
          </div>
          <div className="text-sm text-ink-2">
            <label htmlFor={id('until')}>To (UTC day, included)</label>
            <input
              id={id('until')}
              type="date"
              name="until"
              required
              defaultValue={chosenDay(refused?.until, utcDay(now))}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? id('problem') : undefined}
              className={inputClass}
            />
          </div>
        </>
      )}
      <div className="text-sm text-ink-2">
        <label htmlFor={id('format')}>Format</label>
        <select id={id('format')} name="format" defaultValue="csv" className={inputClass}>
          <option value="csv">CSV</option>
          <option value="ndjson">NDJSON</option>
        </select>
      </div>
      <button type="submit" className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2">
        Download
      </button>
      {problem ? (
        <p id={id('problem')} role="alert" className="w-full text-sm text-danger">
          {problem}
        </p>
      ) : null}
      <p className="w-full text-xs text-ink-4">
        {ownWindow
          ? "Every row of this list with the filters above, in the page's Since–Until window."
          : 'Every row of this list with the filters above, in at most 31 days.'}
      </p>
    </form>
  );
}
