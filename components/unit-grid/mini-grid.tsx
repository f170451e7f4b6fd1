import { formatDateTime } from '../format';
import type { UnitView } from '../trpc-types';
import { stripes, unitStyles } from './unit-styles';

// Apart from the interactive grid (unit-grid.tsx) and the legend (legend.tsx), so that each page
// loads with its first load only the grid it shows (docs/first-load-js.md): the fleet and the
// reservation page this one, the node page the interactive one.

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
        const ring = highlight ? (marked(u) ? 'ring-2 ring-accent ring-offset-1' : 'opacity-40') : '';
        return (
          <span
            key={u.id}
            data-mini-unit={u.id}
            data-state={u.state}
            {...(highlight ? { 'data-highlighted': String(marked(u)) } : {})}
            title={`${u.id}: ${s.label}${marked(u) ? ' (this reservation)' : ''}${u.reservedFrom ? `, reserved from ${formatDateTime(u.reservedFrom)}` : ''}`}
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
