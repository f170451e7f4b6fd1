import type { UnitView } from '../trpc-types';
import { stripes, unitStyles } from './unit-styles';

// Apart from the interactive grid (unit-grid.tsx), so that the pages that only show units — the
// fleet, the reservation page — do not load its selection and keyboard code with their first
// load (docs/first-load-js.md).

/** The legend: every state's colour, letter and meaning. */
export function UnitLegend() {
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-700 sm:grid-cols-4" aria-label="Legend">
      {Object.entries(unitStyles).map(([state, s]) => (
        <li key={state} className="flex items-center gap-2" title={s.description}>
          <span
            className={`inline-flex h-5 w-7 items-center justify-center rounded border-2 font-mono text-[10px] font-bold ${s.cell}`}
            style={s.pattern === 'stripes' ? stripes : undefined}
          >
            {s.glyph}
          </span>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * A compact, non-interactive grid (the fleet table; the reservation page). With `highlight`,
 * those units are ringed and marked, and the others dimmed: e.g. one reservation's units
 * among its node's (the mark is the non-colour cue).
 */
export function MiniGrid({ units, highlight }: { units: UnitView[]; highlight?: ReadonlySet<string> }) {
  const marked = (u: UnitView) => highlight?.has(u.id) ?? false;
  return (
    <div className="flex gap-0.5" aria-label={units.map((u) => `${u.id} ${unitStyles[u.state].label}${marked(u) ? ' (this reservation)' : ''}`).join(', ')}>
      {units.map((u) => {
        const s = unitStyles[u.state];
        const ring = highlight ? (marked(u) ? 'ring-2 ring-indigo-600 ring-offset-1' : 'opacity-40') : '';
        return (
          <span
            key={u.id}
            data-mini-unit={u.id}
            data-state={u.state}
            {...(highlight ? { 'data-highlighted': String(marked(u)) } : {})}
            title={`${u.id}: ${s.label}${marked(u) ? ' (this reservation)' : ''}`}
            className={`inline-flex h-5 w-6 items-center justify-center rounded-sm border font-mono text-[9px] font-bold tracking-tighter ${s.cell} ${ring}`}
            style={s.pattern === 'stripes' ? stripes : undefined}
          >
            {s.glyph}
          </span>
        );
      })}
    </div>
  );
}
