'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTRPC } from './trpc-provider';
import { inputClass } from './ui/form-dialog';
import { offers } from './offers';

/**
 * Picks orgs by name (docs/product.md §6 reserve dialog): a search box over `GET /v1/orgs?q=`
 * (orgs.search), the picked orgs as removable chips. Ids are what the API takes; names are
 * what people recognise: a chip shows the org's name and its id once, or its id alone where the
 * name is not known here (docs/product.md §9.1 q).
 * @param known names of orgs the caller already sees (a reservation's own, `reservations.offers`).
 */
export function OrgPicker(props: { label: string; value: string[]; onChange: (ids: string[]) => void; errors?: string[]; known?: Record<string, string> }) {
  const { label, value, onChange, errors = [], known = {} } = props;
  const trpc = useTRPC();
  const id = useId();
  const [q, setQ] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(q.trim()), 200);
    return () => clearTimeout(t);
  }, [q]);
  const found = useQuery({ ...trpc.orgs.search.queryOptions({ q: debounced }), enabled: debounced.length > 0 });
  const [names, setNames] = useState<Record<string, string>>({});

  return (
    <fieldset className="text-sm" aria-describedby={`${id}-errors`}>
      <legend className="font-medium text-ink-2">{label}</legend>
      <div className="mt-1 flex flex-wrap gap-1" aria-live="polite">
        {value.length === 0 && <span className="text-xs text-ink-4">None yet.</span>}
        {value.map((orgId) => (
          <span
            key={orgId}
            data-testid="org-chip"
            className="inline-flex items-center gap-1 rounded-full bg-accent-soft px-2 py-0.5 text-xs text-accent-ink-strong"
          >
            {(names[orgId] ?? known[orgId]) && <span>{names[orgId] ?? known[orgId]}</span>}
            <span className="font-mono text-accent-ink">{orgId}</span>
            <button
              type="button"
              aria-label={`Remove ${names[orgId] ?? known[orgId] ?? orgId}`}
              onClick={() => onChange(value.filter((v) => v !== orgId))}
              className="rounded px-1 hover:bg-accent-soft-2"
            >
              ×
            </button>
          </span>
        ))}
      </div>
      <label className="mt-2 block text-xs text-ink-3">
        Search orgs for “{label}”
        <input
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="name or id, e.g. Nimbus"
          className={`mt-1 ${inputClass}`}
          {...offers('org-picker')}
        />
      </label>
      {debounced && (
        <ul className="mt-1 max-h-36 overflow-y-auto rounded-md border border-line" aria-label={`Orgs matching ${debounced}`}>
          {(found.data?.items ?? []).map((o) => (
            <li key={o.id}>
              <button
                type="button"
                disabled={value.includes(o.id)}
                onClick={() => {
                  setNames((n) => ({ ...n, [o.id]: o.name }));
                  onChange([...value, o.id]);
                }}
                className="flex w-full justify-between px-3 py-1.5 text-left hover:bg-surface-2 disabled:opacity-40"
              >
                <span>Add {o.name}</span> <span className="font-mono text-xs text-ink-4">{o.id}</span>
              </button>
            </li>
          ))}
          {found.data?.items.length === 0 && <li className="px-3 py-1.5 text-ink-4">No org matches.</li>}
        </ul>
      )}
      <div id={`${id}-errors`}>
        {errors.map((m) => (
          <span key={m} className="mt-1 block text-xs text-danger">
            {m}
          </span>
        ))}
      </div>
    </fieldset>
  );
}
