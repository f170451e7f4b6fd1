'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useTransition } from 'react';
import { messagesFor } from '../problem-words';

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
  /** `text`: values to offer as the person types (a `<datalist>`: no script), each with its label. */
  suggestions?: readonly { value: string; label: string }[];
};

/** `2026-06-01T12:00` (a datetime-local input, read as UTC) → `2026-06-01T12:00:00.000Z`; anything else as typed, for the server to refuse by name. */
function localInputToIso(value: string): string {
  const d = new Date(`${value}Z`);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

/** The inverse, for showing the URL's timestamp in the input. */
function isoToLocalInput(iso: string | undefined): string {
  return iso && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? iso.slice(0, 16) : '';
}

const inputClass = 'mt-1 block rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm';

/**
 * A list page's filters, kept in the URL (docs/product.md §6): submitting navigates to the page
 * with the new query, so the server prefetches the filtered first page, a reload keeps the
 * filters and a link shares them. Paging restarts at the first page. A filter the server refused
 * says why under it, in words (docs/product.md §6), and is scrolled into view.
 */
export function UrlFilters({
  fields,
  values,
  errors = [],
}: {
  fields: readonly FilterField[];
  values: Readonly<Record<string, string | undefined>>;
  /** The problem's `errors[]` when the list refused these filters: each said beside its filter. */
  errors?: readonly { path: string; message: string }[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const formId = useId();
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
          if (value) params.set(f.name, f.kind === 'datetime' ? localInputToIso(value) : value);
        }
        go(params);
      }}
    >
      {fields.map((f) => {
        // The label names its control by id, not by wrapping it: a wrapped select's name would take in its options' text.
        const id = `${formId}-${f.name}`;
        const problems = messagesFor(errors, f.name);
        return (
          <div key={f.name} className="text-sm text-ink-2">
            <label htmlFor={id}>{f.label}</label>
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
                defaultValue={f.kind === 'datetime' ? isoToLocalInput(values[f.name]) : (values[f.name] ?? '')}
                placeholder={f.placeholder}
                list={f.suggestions?.length ? `${id}-suggestions` : undefined}
                aria-invalid={problems.length > 0 || undefined}
                aria-describedby={problems.length ? `${id}-problem` : undefined}
                className={`${inputClass} ${f.kind === 'text' ? 'w-44' : ''}`}
              />
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
