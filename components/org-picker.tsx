'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTRPC } from './trpc-provider';
import { inputClass } from './ui/form-dialog';
import { offers } from './offers';

/**
 * Picks orgs by name (docs/product.md §6 reserve dialog): a search box over `GET /v1/orgs?q=`
 * (orgs.search), the picked orgs as removable chips. Ids are what the API takes; names are
 * what people recognise: a chip shows the org's name and its id once, or its id alone where the
 * name is not known here (docs/product.md §9.1 q). An ARIA 1.2 combobox (issue 23): typing
 * filters, ArrowDown/ArrowUp move the active option, Enter adds it, Escape closes the list, and
 * focus stays in the input throughout.
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
  const [open, setOpen] = useState(true);
  const [active, setActive] = useState(-1);
  const options = debounced ? (found.data?.items ?? []) : [];
  const expanded = open && options.length > 0;
  const listId = `${id}-list`;
  const optionId = (orgId: string) => `${id}-org-${orgId}`;

  function add(o: { id: string; name: string }) {
    if (value.includes(o.id)) return;
    setNames((n) => ({ ...n, [o.id]: o.name }));
    onChange([...value, o.id]);
  }

  // ARIA 1.2 combobox keys: the arrows move the active option, Enter adds it, Escape closes the
  // list (not the dialog round it); focus never leaves the input.
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!expanded) {
        setOpen(true);
        return;
      }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 && step < 0 ? options.length - 1 : (i + step + options.length) % options.length));
    } else if (e.key === 'Enter' && expanded) {
      // Never the dialog's submit while the list is open.
      e.preventDefault();
      const o = options[active];
      if (o) add(o);
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

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
          onChange={(e) => {
            setQ(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(-1)}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && options[active] ? optionId(options[active].id) : undefined}
          placeholder="name or id, e.g. Nimbus"
          className={`mt-1 ${inputClass}`}
          {...offers('org-picker')}
        />
      </label>
      {/* Always in the DOM, so aria-controls names an element; hidden while there is nothing to pick. */}
      <ul
        id={listId}
        role="listbox"
        hidden={!expanded}
        className="mt-1 max-h-36 overflow-y-auto rounded-md border border-line"
        aria-label={`Orgs matching ${debounced}`}
      >
        {options.map((o, i) => (
          <li
            key={o.id}
            id={optionId(o.id)}
            role="option"
            aria-selected={i === active}
            aria-disabled={value.includes(o.id) || undefined}
            // The input keeps focus: a click picks without moving it (ARIA 1.2 combobox).
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => add(o)}
            className={`flex cursor-pointer justify-between px-3 py-1.5 hover:bg-surface-2 aria-disabled:cursor-default aria-disabled:opacity-40 ${i === active ? 'bg-surface-3 outline outline-2 -outline-offset-2 outline-accent' : ''}`}
          >
            <span>Add {o.name}</span> <span className="font-mono text-xs text-ink-4">{o.id}</span>
          </li>
        ))}
      </ul>
      {open && debounced && found.data?.items.length === 0 && <p className="mt-1 px-3 py-1.5 text-ink-4">No org matches.</p>}
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
