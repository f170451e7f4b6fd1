'use client';

import { formatCountdown, reclaimIn } from '../countdown';
import { formatDateTime, UTC } from '../format';
import type { UnitView } from '../trpc-types';
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import { emptySelection, endExtension, extendSelection, moveFocus, selectBox, type Selection } from './selection';
import { PendingMark } from './legend';
import { stripes, unitStyles } from './unit-styles';
import { useTimeZone } from '../time-zone';

const COLUMNS = 8;
/** Columns below the `sm` breakpoint: four cells of a phone's width keep their ids readable. */
const NARROW_COLUMNS = 4;

/** A clock: the non-colour cue of a unit a reclaim is scheduled on (an SVG, since not every system font has ⏱). */
export function ClockIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden className="inline h-3 w-3 align-[-2px]" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="8" cy="8" r="6.5" />
      <path d="M8 4.5V8l2.5 1.5" />
    </svg>
  );
}

/** What the unit is: "H100-SXM5, 80 GiB, NVLink nvl-0" (issue 23), the parts the node gave. */
export function describeHardware(u: UnitView): string {
  return [u.model, u.memoryGiB !== undefined && `${u.memoryGiB} GiB`, u.nvlinkDomain && `NVLink ${u.nvlinkDomain}`].filter(Boolean).join(', ');
}

/**
 * One line describing a unit for people and screen readers: what it is, its state, its
 * scheduled reclaim (issue 22) and the reservation ahead that takes it (issue 23).
 */
export function describeUnit(u: UnitView, zone: string = UTC): string {
  return [
    u.id,
    unitStyles[u.state].label.toLowerCase(),
    describeHardware(u),
    u.reservationId && `reservation ${u.reservationId}`,
    u.vmId && `VM ${u.vmId}`,
    u.reclaimAt && `${reclaimIn(u.reclaimAt, Date.now(), zone)} (${formatDateTime(u.reclaimAt, zone)})`,
    u.reservedFrom && `reserved from ${formatDateTime(u.reservedFrom, zone)}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The node's units coloured by state (docs/product.md §3), with a letter cue per state. Click toggles,
 * shift-click selects a range, drag selects a box, arrow keys move focus, Shift+Arrow extends
 * the selection, Escape clears it and space toggles (docs/product.md §6). Eight columns, four on
 * a phone's width (the CSS decides; the keys and the drag ask the grid how many it shows).
 * Selection state lives with the caller; the grid reports clicks.
 */
export function UnitGrid(props: {
  units: UnitView[];
  selection?: Selection;
  onToggle?: (unitId: string, range: boolean) => void;
  /** Drag across cells: the new selection (the box added to the selection at drag start). */
  onSelect?: (selection: Selection) => void;
  /** More of the details line for the unit under the pointer or focus (the node page's VM detail). */
  detail?: (unit: UnitView) => ReactNode;
}) {
  const { units, selection, onToggle, onSelect } = props;
  const { zone } = useTimeZone();
  const [active, setActive] = useState<UnitView | null>(null);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const grid = useRef<HTMLDivElement | null>(null);
  const drag = useRef<{ from: number; base: Selection; moved: boolean } | null>(null);
  // Roving tabindex: the grid is one Tab stop; arrow keys move within it.
  const [tabStop, setTabStop] = useState(0);
  const selectable = Boolean(onToggle);
  const columns = Math.min(COLUMNS, Math.max(units.length, 1));
  const order = units.map((u) => u.id);
  // The columns the CSS shows now (four or eight, by the width): what ArrowDown and a drag's box follow.
  const shownColumns = () => (grid.current ? getComputedStyle(grid.current).gridTemplateColumns.split(' ').length : columns);

  useEffect(() => {
    const end = () => {
      // Let the click that ends a drag know it was a drag (see onClick).
      setTimeout(() => (drag.current = null), 0);
    };
    window.addEventListener('pointerup', end);
    return () => window.removeEventListener('pointerup', end);
  }, []);

  function onPointerDown(e: PointerEvent, index: number) {
    if (!selectable || e.button !== 0 || e.shiftKey || !selection) return;
    drag.current = { from: index, base: selection, moved: false };
  }

  function onPointerEnter(index: number) {
    const d = drag.current;
    if (!d || !onSelect) return;
    if (index !== d.from) d.moved = true;
    if (d.moved) onSelect(selectBox(d.base, order, shownColumns(), d.from, index));
  }

  function onKeyDown(e: KeyboardEvent, index: number) {
    if (e.key === 'Escape' && selection && selection.selected.size > 0 && onSelect) {
      e.preventDefault();
      onSelect(emptySelection);
      return;
    }
    const next = moveFocus(index, e.key, units.length, shownColumns());
    if (next === index) return;
    e.preventDefault();
    setTabStop(next);
    cells.current[next]?.focus();
    if (!selectable || !selection || !onSelect) return;
    if (e.shiftKey) onSelect(extendSelection(selection, order, order[index]!, order[next]!));
    else if (selection.base) onSelect(endExtension(selection));
  }

  function onClick(e: MouseEvent, unitId: string) {
    if (drag.current?.moved) return;
    onToggle?.(unitId, e.shiftKey);
  }

  return (
    <div>
      <div
        ref={grid}
        role="group"
        aria-label="GPU units"
        className="grid touch-none grid-cols-[repeat(var(--narrow-columns),minmax(0,1fr))] gap-2 sm:grid-cols-[repeat(var(--columns),minmax(0,1fr))]"
        style={{ '--columns': columns, '--narrow-columns': Math.min(NARROW_COLUMNS, columns) } as CSSProperties}
      >
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
              aria-label={describeUnit(u, zone)}
              title={describeUnit(u, zone)}
              // The countdown is of the clock of whoever renders it: the server's first HTML and the browser may differ by a minute.
              suppressHydrationWarning
              onClick={(e) => onClick(e, u.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              onPointerDown={(e) => onPointerDown(e, i)}
              onPointerEnter={() => onPointerEnter(i)}
              onMouseEnter={() => setActive(u)}
              onMouseLeave={() => setActive(null)}
              tabIndex={i === Math.min(tabStop, units.length - 1) ? 0 : -1}
              onFocus={() => {
                setActive(u);
                setTabStop(i);
              }}
              onBlur={() => setActive(null)}
              className={[
                'relative flex h-20 flex-col items-center justify-center rounded-md border-2 font-mono text-xs transition select-none',
                style.cell,
                selectable
                  ? 'cursor-pointer hover:brightness-95 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink'
                  : 'cursor-default focus-visible:outline focus-visible:outline-2 focus-visible:outline-ink',
                selected ? 'ring-4 ring-accent ring-offset-2' : '',
              ].join(' ')}
              style={style.pattern === 'stripes' ? stripes : undefined}
            >
              <span className="text-lg font-bold leading-none">{style.glyph}</span>
              <span className="mt-1">{u.id}</span>
              {selected && <span className="absolute right-1 top-1 rounded bg-accent px-1 text-[10px] font-semibold text-on-accent">✓</span>}
              {u.reservedFrom && <PendingMark />}
              {u.reclaimAt && (
                // The clock is the cue beside the colour; the cell's label says it in words.
                <span
                  data-testid="reclaim-badge"
                  aria-hidden
                  className="absolute left-1 top-1 rounded bg-warn-soft-2 px-1 text-[10px] font-semibold leading-4 text-warn-ink ring-1 ring-warn"
                >
                  <ClockIcon />
                  {/* The countdown is of the clock of whoever renders it (see the cell's label). */}
                  <span className="hidden sm:inline" suppressHydrationWarning>
                    {' '}
                    {formatCountdown(u.reclaimAt)}
                  </span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      {/* Three lines high whatever it says (two from sm up): the controls under it never move. */}
      <p className="mt-2 line-clamp-3 h-12 text-xs text-ink-3 sm:line-clamp-2 sm:h-8" aria-live="polite" data-testid="unit-details">
        {active ? (
          <>
            {describeUnit(active, zone)}
            {props.detail?.(active)}
          </>
        ) : selectable ? (
          'Click to select units; shift-click selects a range; drag selects a box; arrow keys, Shift+Arrow, space and Escape work too.'
        ) : (
          ''
        )}
      </p>
    </div>
  );
}
