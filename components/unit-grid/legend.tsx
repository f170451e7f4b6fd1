import { stripes, unitStyles } from './unit-styles';

/**
 * The cue of a unit a reservation ahead will hold (issue 23): a calendar badge in the cell's
 * corner, not colour alone, drawn in the page's own surface and ink so it shows on every state's
 * colour in both themes; the cell's label and title say when in words.
 */
export function PendingMark({ className = 'absolute bottom-1 right-1' }: { className?: string }) {
  return (
    <span data-testid="pending-mark" aria-hidden className={`${className} rounded-sm bg-surface px-0.5 leading-none text-ink ring-1 ring-ink-3`}>
      <svg viewBox="0 0 16 16" className="inline h-3 w-3" fill="none" stroke="currentColor" strokeWidth="1.75">
        <rect x="2" y="3" width="12" height="11" rx="1.5" />
        <path d="M2 7h12M5.5 1.5v3M10.5 1.5v3" />
      </svg>
    </span>
  );
}

/** The legend: every state's colour, letter and meaning; with `pending`, the mark of a reservation ahead. */
export function UnitLegend({ pending = false }: { pending?: boolean }) {
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
      {pending && (
        <li className="flex items-center gap-2" title="A reservation that has not started yet will hold the unit; its details say from when">
          <span className="inline-flex h-5 w-7 items-center justify-center">
            <PendingMark className="" />
          </span>
          Reserved ahead
        </li>
      )}
    </ul>
  );
}
