'use client';

import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { UnitView } from '@/server/unit-states';
import { moveFocus, type Selection } from './selection';
import { unitStyles } from './unit-styles';

const COLUMNS = 8;
const stripes = { backgroundImage: 'repeating-linear-gradient(135deg, transparent 0 6px, rgba(120,53,15,.35) 6px 8px)' };

/** One line describing a unit for people and screen readers. */
export function describeUnit(u: UnitView): string {
  return [u.id, unitStyles[u.state].label.toLowerCase(), u.reservationId && `reservation ${u.reservationId}`, u.vmId && `VM ${u.vmId}`].filter(Boolean).join(' · ');
}

/**
 * The node's units coloured by state (SPEC §3), with a letter cue per state. Click toggles,
 * shift-click selects a range, arrow keys move focus and space toggles (SPEC §6).
 * Selection state lives with the caller; the grid reports clicks.
 */
export function UnitGrid(props: {
  units: UnitView[];
  selection?: Selection;
  onToggle?: (unitId: string, range: boolean) => void;
  size?: 'md' | 'lg';
}) {
  const { units, selection, onToggle } = props;
  const [active, setActive] = useState<UnitView | null>(null);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const selectable = Boolean(onToggle);

  function onKeyDown(e: KeyboardEvent, index: number) {
    const next = moveFocus(index, e.key, units.length, COLUMNS);
    if (next !== index) {
      e.preventDefault();
      cells.current[next]?.focus();
    }
  }

  function onClick(e: MouseEvent, unitId: string) {
    onToggle?.(unitId, e.shiftKey);
  }

  return (
    <div>
      <div role="group" aria-label="GPU units" className="grid gap-2" style={{ gridTemplateColumns: `repeat(${Math.min(COLUMNS, Math.max(units.length, 1))}, minmax(0, 1fr))` }}>
        {units.map((u, i) => {
          const style = unitStyles[u.state];
          const selected = selection?.selected.has(u.id) ?? false;
          return (
            <button
              key={u.id}
              ref={(el) => {
                cells.current[i] = el;
              }}
              type="button"
              data-unit-id={u.id}
              data-state={u.state}
              aria-pressed={selectable ? selected : undefined}
              aria-label={describeUnit(u)}
              title={describeUnit(u)}
              onClick={(e) => onClick(e, u.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              onMouseEnter={() => setActive(u)}
              onMouseLeave={() => setActive(null)}
              onFocus={() => setActive(u)}
              onBlur={() => setActive(null)}
              className={[
                'relative flex h-20 flex-col items-center justify-center rounded-md border-2 font-mono text-xs transition select-none',
                style.cell,
                selectable ? 'cursor-pointer hover:brightness-95 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600' : 'cursor-default focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600',
                selected ? 'ring-4 ring-indigo-500 ring-offset-2' : '',
              ].join(' ')}
              style={style.pattern === 'stripes' ? stripes : undefined}
            >
              <span className="text-lg font-bold leading-none">{style.glyph}</span>
              <span className="mt-1">{u.id}</span>
              {selected && <span className="absolute right-1 top-1 rounded bg-indigo-600 px-1 text-[10px] font-semibold text-white">✓</span>}
            </button>
          );
        })}
      </div>
      <p className="mt-2 h-5 truncate text-xs text-slate-600" aria-live="polite" data-testid="unit-details">
        {active ? describeUnit(active) : selectable ? 'Click to select units; shift-click selects a range; arrow keys and space work too.' : ''}
      </p>
    </div>
  );
}

/** The legend: every state's colour, letter and meaning. */
export function UnitLegend() {
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-700 sm:grid-cols-4" aria-label="Legend">
      {Object.entries(unitStyles).map(([state, s]) => (
        <li key={state} className="flex items-center gap-2" title={s.description}>
          <span className={`inline-flex h-5 w-7 items-center justify-center rounded border-2 font-mono text-[10px] font-bold ${s.cell}`} style={s.pattern === 'stripes' ? stripes : undefined}>
            {s.glyph}
          </span>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** A compact, non-interactive grid for the fleet table. */
export function MiniGrid({ units }: { units: UnitView[] }) {
  return (
    <div className="flex gap-0.5" aria-label={units.map((u) => `${u.id} ${unitStyles[u.state].label}`).join(', ')}>
      {units.map((u) => {
        const s = unitStyles[u.state];
        return (
          <span key={u.id} title={`${u.id}: ${s.label}`} className={`inline-flex h-5 w-5 items-center justify-center rounded-sm border font-mono text-[9px] font-bold ${s.cell}`} style={s.pattern === 'stripes' ? stripes : undefined}>
            {s.glyph.replace('●', '')}
          </span>
        );
      })}
    </div>
  );
}
