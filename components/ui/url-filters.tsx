'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useTransition } from 'react';
import { formatDateTime } from '../format';
import { exclusiveIsoToLastMinute, isoToWallTime, lastMinuteToExclusiveIso, wallTimeToIso } from '../local-time';
import { messagesFor } from '../problem-words';
import { useTimeZone } from '../time-zone';

/** One filter of a list page; its `name` is the query parameter, in the page's URL as in the API's. */
export type FilterField = {
  name: string;
  label: string;
  kind: 'text' | 'select' | 'datetime';
  /** `select`: the values, each with its label. */
  options?: readonly { value: string; label: string }[];
  /** `select`: offer "any" (no filter); off when the parameter always has a value. */
  allowAny?: boolean;
  placeholder?: string;
  /**
   * `datetime`: the end of a range, whose last minute counts whole ("until 21:24" takes in
   * 21:24:59.999, issue 23). The API's bound is exclusive (docs/product.md §5, the audit trail's
   * `until`), so the next minute goes into the URL, and the field shows the minute before it.
   */
  end?: boolean;
  /** `text`: values to offer as the person types (a `<datalist>`: no script), each with its label. */
  suggestions?: readonly { value: string; label: string }[];
};

/**
 * A date-time filter's value (a datetime-local wall time, read in the page's `zone`) as the URL's
 * instant (`2026-06-01T12:00` in UTC → `2026-06-01T12:00:00.000Z`); anything else as typed, for
 * the server to refuse by name.
 */
function wallTimeToParam(f: FilterField, value: string, zone: string): string {
  return (f.end ? lastMinuteToExclusiveIso(value, zone) : wallTimeToIso(value, zone)) ?? value;
}

/** The inverse, for showing the URL's instant in the input; empty when it is none. */
function paramToWallTime(f: FilterField, iso: string | undefined, zone: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return f.end ? exclusiveIsoToLastMinute(iso, zone) : isoToWallTime(iso, zone);
}

const inputClass = 'mt-1 block rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm';

/**
 * A list page's filters, kept in the URL (docs/product.md §6): submitting navigates to the page
 * with the new query, so the server prefetches the filtered first page, a reload keeps the
 * filters and a link shares them. Paging restarts at the first page. A filter the server refused
 * says why under it, in words (docs/product.md §6), and is scrolled into view. A date-time filter
 * is read in the page's zone and labelled with it ("Since (Europe/Berlin)", issue 23).
 */
export function UrlFilters({
  fields,
  values,
  errors = [],
  keep = {},
}: {
  fields: readonly FilterField[];
  values: Readonly<Record<string, string | undefined>>;
  /** Parameters of the page that are not filters (the calendar's window and view), kept as they are. */
  keep?: Readonly<Record<string, string | undefined>>;
  /** The problem's `errors[]` when the list refused these filters: each said beside its filter. */
  errors?: readonly { path: string; message: string }[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const formId = useId();
  const { zone } = useTimeZone();
  const go = (params: URLSearchParams) => startTransition(() => router.push(params.toString() ? `${pathname}?${params.toString()}` : pathname));

  return (
    <form
      aria-label="Filters"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const params = new URLSearchParams();
        for (const f of fields) {
          const raw = form.get(f.name);
          const value = typeof raw === 'string' ? raw.trim() : '';
          if (value) params.set(f.name, f.kind === 'datetime' ? wallTimeToParam(f, value, zone) : value);
        }
        for (const [name, value] of Object.entries(keep)) if (value) params.set(name, value);
        go(params);
      }}
    >
      {fields.map((f) => {
        // The label names its control by id, not by wrapping it: a wrapped select's name would take in its options' text.
        const id = `${formId}-${f.name}`;
        const problems = messagesFor(errors, f.name);
        const value = values[f.name];
        return (
          <div key={f.name} className="text-sm text-ink-2">
            <label htmlFor={id}>{f.kind === 'datetime' ? `${f.label} (${zone})` : f.label}</label>
            {f.kind === 'select' ? (
              <select id={id} name={f.name} defaultValue={values[f.name] ?? ''} className={inputClass}>
                {f.allowAny !== false && <option value="">any</option>}
                {f.options?.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                name={f.name}
                type={f.kind === 'datetime' ? 'datetime-local' : 'text'}
                defaultValue={f.kind === 'datetime' ? paramToWallTime(f, value, zone) : (value ?? '')}
                placeholder={f.placeholder}
                list={f.suggestions?.length ? `${id}-suggestions` : undefined}
                aria-invalid={problems.length > 0 || undefined}
                aria-describedby={problems.length ? `${id}-problem` : undefined}
                className={`${inputClass} ${f.kind === 'text' ? 'w-44' : ''}`}
              />
            )}
            {f.end && value && !problems.length && !Number.isNaN(Date.parse(value)) && (
              // What the range means: the minute shown counts whole (a link's odd instant is said as it is).
              <span data-testid={`${f.name}-means`} className="mt-1 block text-xs text-ink-4">
                before {Date.parse(value) % 60_000 ? value : formatDateTime(value, zone)}
              </span>
            )}
            {f.suggestions && f.suggestions.length > 0 && (
              <datalist id={`${id}-suggestions`}>
                {f.suggestions.map((o) => (
                  <option key={o.value} value={o.value} label={o.label} />
                ))}
              </datalist>
            )}
            {problems.length > 0 && <FilterProblem id={`${id}-problem`} text={problems.join(' ')} />}
          </div>
        );
      })}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2 disabled:opacity-50"
      >
        {pending ? 'Filtering…' : 'Filter'}
      </button>
      <button
        type="button"
        disabled={pending}
        onClick={() => go(new URLSearchParams())}
        className="rounded-md px-2 py-1.5 text-sm text-ink-3 hover:text-ink disabled:opacity-50"
      >
        Clear
      </button>
    </form>
  );
}

/** Why the server refused a filter, under it; scrolled into view when it first shows. */
function FilterProblem({ id, text }: { id: string; text: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => ref.current?.scrollIntoView({ block: 'nearest' }), []);
  return (
    <span ref={ref} id={id} data-field-error className="mt-1 block max-w-64 text-xs text-danger">
      {text}
    </span>
  );
}
