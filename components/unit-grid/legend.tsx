import { stripes, unitStyles } from './unit-styles';

/** The legend: every state's colour, letter and meaning. */
export function UnitLegend() {
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-ink-2 sm:grid-cols-4" aria-label="Legend">
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
