import type { ReservationAction, UnitView } from '../trpc-types';

/** What the selected units allow, by the actions the server offers (the console decides nothing more). */
export type SelectionActions = {
  /** Reserve is offered on this node, and every selected unit is held by no reservation now. */
  reserve: boolean;
  /** The one reservation every selected unit belongs to, when it offers release and they are all idle reserved units. */
  release: string | null;
  /**
   * The one reservation that holds every selected unit now, when it offers reclaim and some of
   * them is one reclaim can act on: on the spot market, running a VM (a spot VM there is
   * terminated, however it got there), or withheld (maybe released before the review).
   */
  reclaim: string | null;
  hint: string;
};

/**
 * Decides which actions the action bar enables for a selection: reserve needs units no
 * reservation holds now (free, or busy with a VM for a reservation that starts later — the
 * API answers the details); release and reclaim act on one reservation, only when the server
 * offered them on it, and only on units they can act on (docs/product.md §6): release on idle
 * reserved units, reclaim on units the reservation holds now of which one at least is released,
 * busy or withheld — never on the free units of a reservation that has not started.
 */
const reclaimableStates: ReadonlySet<UnitView['state']> = new Set(['released', 'spot-occupied', 'reserved-occupied', 'withheld']);

export function actionsForSelection(
  units: readonly UnitView[],
  selectedIds: readonly string[],
  byReservation: ReadonlyMap<string, readonly ReservationAction[]>,
  canReserve: boolean,
): SelectionActions {
  const selected = selectedIds.map((id) => units.find((u) => u.id === id)).filter((u): u is UnitView => Boolean(u));
  if (selected.length === 0) return { reserve: false, release: null, reclaim: null, hint: 'Select units to act on.' };
  const unheld = selected.every((u) => u.state === 'free' || u.state === 'occupied');
  const holders = new Set(selected.map((u) => u.reservationId ?? null));
  const one = holders.size === 1 ? [...holders][0]! : null;
  const offered = one ? (byReservation.get(one) ?? []) : [];
  const release = one && offered.includes('release') && selected.every((u) => u.state === 'reserved') ? one : null;
  const heldNow = selected.every((u) => u.state !== 'free' && u.state !== 'occupied');
  const reclaimable = heldNow && selected.some((u) => reclaimableStates.has(u.state));
  const reclaim = one && offered.includes('reclaim') && reclaimable ? one : null;
  const reserve = canReserve && unheld;
  const n = `${selected.length} unit${selected.length === 1 ? '' : 's'}`;
  const hint = reserve
    ? `${n} selected, held by no reservation now.`
    : one && (release || reclaim)
      ? `${n} of ${one} selected.`
      : one && offered.includes('reclaim') && !heldNow
        ? `${one} does not hold these units yet: there is nothing to release or reclaim.`
        : one && offered.includes('reclaim')
          ? `None of these units is on the spot market or runs a VM: there is nothing to reclaim.`
          : one
            ? `You may not act on units of ${one}.`
            : holders.size > 1
              ? 'Select units of one reservation.'
              : canReserve
                ? `${n} selected.`
                : 'These units belong to no reservation you manage.';
  return { reserve, release, reclaim, hint };
}
