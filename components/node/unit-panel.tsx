'use client';

import type { ReservationAction, UnitView } from '../trpc-types';
import { emptySelection, orderedSelection, pruneSelection, selectRange, selectWhere, toggleUnit, type Selection } from '../unit-grid/selection';
import { UnitGrid, UnitLegend } from '../unit-grid/unit-grid';
import { unitStyles } from '../unit-grid/unit-styles';

/**
 * The node page's unit grid with selection and the actions the server offers on the selected
 * units' reservation (docs/product.md §6): click, shift-click, drag, keyboard; "Select all
 * released"; "Reclaim…" when every selected unit belongs to one reservation that offers it.
 * The console holds no rule: what a reservation offers comes from the server (server/policy.ts).
 */
export function UnitPanel(props: {
  units: UnitView[];
  counts: Record<string, number>;
  actionsByReservation: Map<string, ReservationAction[]>;
  selection: Selection;
  onSelectionChange: (s: Selection) => void;
  onReclaim: (target: { reservationId: string; unitIds: string[] }) => void;
}) {
  const { units, counts, actionsByReservation, onSelectionChange, onReclaim } = props;
  const order = units.map((u) => u.id);
  const selection = pruneSelection(props.selection, order);
  const selectedIds = orderedSelection(selection, order);
  const canReclaimAny = [...actionsByReservation.values()].some((a) => a.includes('reclaim'));

  // Reclaim acts on one reservation: every selected unit must be held by the same one, and the
  // server must have offered 'reclaim' on it.
  const selectedReservations = new Set(selectedIds.map((id) => units.find((u) => u.id === id)?.reservationId ?? null));
  const target = selectedReservations.size === 1 ? [...selectedReservations][0] : null;
  const reclaimable = Boolean(target && actionsByReservation.get(target)?.includes('reclaim'));
  const hint =
    selectedIds.length === 0
      ? 'Select units to reclaim.'
      : !target || selectedReservations.size > 1
        ? 'Select units of one reservation.'
        : !reclaimable
          ? `You may not reclaim units of ${target}.`
          : `${selectedIds.length} unit${selectedIds.length === 1 ? '' : 's'} of ${target} selected.`;

  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="units-title">
      <div className="mb-4 flex items-center justify-between">
        <h2 id="units-title" className="font-semibold">Units</h2>
        <p className="text-xs text-slate-500">
          {Object.entries(counts)
            .filter(([, c]) => c > 0)
            .map(([s, c]) => `${c} ${unitStyles[s as keyof typeof unitStyles].label.toLowerCase()}`)
            .join(' · ')}
        </p>
      </div>
      <UnitGrid
        units={units}
        selection={canReclaimAny ? selection : undefined}
        onToggle={canReclaimAny ? (id, range) => onSelectionChange(range ? selectRange(selection, order, id) : toggleUnit(selection, id)) : undefined}
        onSelect={canReclaimAny ? onSelectionChange : undefined}
      />
      {canReclaimAny && (
        <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <button type="button" onClick={() => onSelectionChange(selectWhere(units, (u) => u.state === 'released' || u.state === 'spot-occupied'))} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
            Select all released
          </button>
          <button type="button" onClick={() => onSelectionChange(emptySelection)} disabled={selectedIds.length === 0} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-50">
            Clear
          </button>
          <span className="flex-1 text-sm text-slate-600" data-testid="selection-hint">
            {hint}
          </span>
          <button
            type="button"
            disabled={!reclaimable}
            onClick={() => target && onReclaim({ reservationId: target, unitIds: selectedIds })}
            className="rounded-md bg-red-600 px-4 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-40"
          >
            Reclaim…
          </button>
        </div>
      )}
      <div className="mt-4 border-t border-slate-100 pt-3">
        <UnitLegend />
      </div>
    </section>
  );
}
