'use client';

import { reclaimIn } from '../countdown';
import type { ReservationAction, UnitView } from '../trpc-types';
import { emptySelection, orderedSelection, pruneSelection, selectRange, selectWhere, toggleUnit, type Selection } from '../unit-grid/selection';
import { UnitLegend } from '../unit-grid/legend';
import { ClockIcon, UnitGrid } from '../unit-grid/unit-grid';
import { unitStyles } from '../unit-grid/unit-styles';
import { actionsForSelection } from './selection-actions';
import { lazy, Suspense } from 'react';
import { offers } from '../offers';
import { Time, useTimeZone } from '../time-zone';

// Loaded when first shown (a unit hovered, a holder's action bar), never with the page: the
// node page's first-load JS is at its 150 kB budget (docs/first-load-js.md).
const ReclaimPlanForm = lazy(() => import('./reclaim-plan-form').then((m) => ({ default: m.ReclaimPlanForm })));
const UnitVmDetail = lazy(() => import('./unit-vm-detail').then((m) => ({ default: m.UnitVmDetail })));

/** What the panel's action bar opens (the node view shows the dialog). */
export type UnitAction = { kind: 'reserve'; unitIds: string[] } | { kind: 'release' | 'reclaim'; reservationId: string; unitIds: string[] };

/**
 * The node page's unit grid with selection and the actions the server offers (docs/product.md
 * §6): click, shift-click, drag, keyboard; "Select all released"; "Reserve…" (units no
 * reservation holds now), "Release…" and "Reclaim…" (units of one reservation that offers
 * them). The console holds no rule: offers come from the server (server/policy.ts).
 */
export function UnitPanel(props: {
  nodeId: string;
  units: UnitView[];
  counts: Record<string, number>;
  actionsByReservation: Map<string, ReservationAction[]>;
  canReserve: boolean;
  selection: Selection;
  onSelectionChange: (s: Selection) => void;
  onAction: (action: UnitAction) => void;
}) {
  const { nodeId, units, counts, actionsByReservation, canReserve, onSelectionChange, onAction } = props;
  const { zone } = useTimeZone();
  const order = units.map((u) => u.id);
  const selection = pruneSelection(props.selection, order);
  const selectedIds = orderedSelection(selection, order);
  const offered = [...actionsByReservation.values()];
  const canRelease = offered.some((a) => a.includes('release'));
  const canReclaim = offered.some((a) => a.includes('reclaim'));
  const selectable = canReserve || canRelease || canReclaim;
  const possible = actionsForSelection(units, selectedIds, actionsByReservation, canReserve);
  // The units of each pending scheduled reclaim, by its time (issue 22): said in words under the grid.
  const scheduled = new Map<string, string[]>();
  for (const u of units) if (u.reclaimAt) scheduled.set(u.reclaimAt, [...(scheduled.get(u.reclaimAt) ?? []), u.id]);

  return (
    <section className="rounded-xl border border-line bg-surface p-4 shadow-sm sm:p-5" aria-labelledby="units-title">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="units-title" className="font-semibold">
          Units
        </h2>
        <p className="text-xs text-ink-4">
          {Object.entries(counts)
            .filter(([, c]) => c > 0)
            .map(([s, c]) => `${c} ${unitStyles[s as keyof typeof unitStyles].label.toLowerCase()}`)
            .join(' · ')}
        </p>
      </div>
      <UnitGrid
        units={units}
        selection={selectable ? selection : undefined}
        onToggle={selectable ? (id, range) => onSelectionChange(range ? selectRange(selection, order, id) : toggleUnit(selection, id)) : undefined}
        onSelect={selectable ? onSelectionChange : undefined}
        detail={(u) => (
          <Suspense fallback={null}>
            <UnitVmDetail nodeId={nodeId} unit={u} />
          </Suspense>
        )}
      />
      {scheduled.size > 0 && (
        <ul data-testid="scheduled-units" className="mt-3 space-y-1 text-sm text-warn-ink">
          {[...scheduled].map(([at, ids]) => (
            <li key={at} data-reclaim-at={at}>
              <ClockIcon /> <span className="font-mono">{ids.join(', ')}</span>: <Time iso={at}>{reclaimIn(at, Date.now(), zone)}</Time>
            </li>
          ))}
        </ul>
      )}
      {selectable && (
        // The buttons come first and are always there (disabled when the selection allows
        // nothing), so no hover, tap or selection moves them: the hint has its own line below,
        // two lines high, and the plan form its own below that (issue 23).
        <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-line-soft pt-4" data-testid="action-bar">
          {canReclaim && (
            <button
              type="button"
              onClick={() => onSelectionChange(selectWhere(units, (u) => u.state === 'released' || u.state === 'spot-occupied'))}
              className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2"
            >
              Select all released
            </button>
          )}
          <button
            type="button"
            onClick={() => onSelectionChange(emptySelection)}
            disabled={selectedIds.length === 0}
            className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2 disabled:opacity-50"
          >
            Clear
          </button>
          {canReserve && (
            <button
              type="button"
              disabled={!possible.reserve}
              onClick={() => onAction({ kind: 'reserve', unitIds: selectedIds })}
              className={secondary}
              {...offers('node.reserve')}
            >
              Reserve…
            </button>
          )}
          {canRelease && (
            <button
              type="button"
              disabled={!possible.release}
              onClick={() => possible.release && onAction({ kind: 'release', reservationId: possible.release, unitIds: selectedIds })}
              className={secondary}
              {...offers('node.release')}
            >
              Release…
            </button>
          )}
          {canReclaim && (
            <button
              type="button"
              disabled={!possible.reclaim}
              onClick={() => possible.reclaim && onAction({ kind: 'reclaim', reservationId: possible.reclaim, unitIds: selectedIds })}
              {...offers('node.reclaim')}
              className="rounded-md bg-danger-solid px-4 py-1.5 text-sm font-semibold text-on-accent shadow-sm hover:bg-danger-solid-strong disabled:cursor-not-allowed disabled:opacity-40"
            >
              Reclaim…
            </button>
          )}
          <p className="min-h-10 w-full text-sm text-ink-3" data-testid="selection-hint">
            {possible.hint}
          </p>
          {canReclaim && (
            <Suspense fallback={null}>
              <ReclaimPlanForm
                nodeId={nodeId}
                reservations={[...actionsByReservation].filter(([, a]) => a.includes('reclaim')).map(([id]) => id)}
                selectionReservation={possible.reclaim ?? null}
                selectedIds={selectedIds}
                onPlan={(ids) => onSelectionChange(selectWhere(units, (u) => ids.includes(u.id)))}
              />
            </Suspense>
          )}
        </div>
      )}
      <div className="mt-4 border-t border-line-soft pt-3">
        <UnitLegend pending />
      </div>
    </section>
  );
}

const secondary =
  'rounded-md border border-accent-line bg-accent-soft px-4 py-1.5 text-sm font-semibold text-accent-ink-strong hover:bg-accent-soft-2 disabled:cursor-not-allowed disabled:opacity-40';
