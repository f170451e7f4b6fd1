/**
 * A list page's download of its export (docs/product.md §5.8 "Exports"): a plain `<form
 * method="get">` to the console's download route (`/exports/<list>`), so it needs no client
 * JS — the browser saves the answer, which comes as an attachment, and stays on the page. It
 * sends the page's filters as they are, and a window: the page's own since and until when it
 * has both, else two UTC days (by default the last 7), at most 31 days apart.
 */

/** The lists a console page downloads. */
export type ExportList = 'audit' | 'vms' | 'reservations';

const inputClass = 'mt-1 block rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm';
const DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-12-03`: a date input's value, as a UTC day. */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * @param filters the page's filters (verb input fields, as its URL names them); since and until among them when it has them.
 * @param now the page's clock: the default window's last day.
 */
export function ExportDownload({ list, filters, now }: { list: ExportList; filters: Readonly<Record<string, string | undefined>>; now: Date }) {
  const { since, until, ...rest } = filters;
  const ownWindow = since !== undefined && until !== undefined;
  const id = (name: string) => `export-${list}-${name}`;
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
            <input id={id('since')} type="date" name="since" required defaultValue={utcDay(new Date(now.getTime() - 6 * DAY_MS))} className={inputClass} />
          </div>
          <div className="text-sm text-ink-2">
            <label htmlFor={id('until')}>To (UTC day, included)</label>
            <input id={id('until')} type="date" name="until" required defaultValue={utcDay(now)} className={inputClass} />
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
      <p className="w-full text-xs text-ink-4">
        {ownWindow
          ? "Every row of this list with the filters above, in the page's Since–Until window."
          : 'Every row of this list with the filters above, in at most 31 days.'}
      </p>
    </form>
  );
}
