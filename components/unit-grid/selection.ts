/**
 * Grid selection as pure functions over unit ids in the node's order, so that the rules
 * (click toggles, shift-click selects a range, select all released) are testable alone.
 */
export type Selection = { selected: ReadonlySet<string>; anchor: string | null };

export const emptySelection: Selection = { selected: new Set(), anchor: null };

/** Click: toggles one unit and makes it the anchor of the next shift-click. */
export function toggleUnit(sel: Selection, unitId: string): Selection {
  const selected = new Set(sel.selected);
  if (selected.has(unitId)) selected.delete(unitId);
  else selected.add(unitId);
  return { selected, anchor: unitId };
}

/** Shift-click: adds every unit from the anchor to `unitId` (inclusive, in node order). */
export function selectRange(sel: Selection, order: readonly string[], unitId: string): Selection {
  const to = order.indexOf(unitId);
  const from = sel.anchor === null ? -1 : order.indexOf(sel.anchor);
  if (to < 0) return sel;
  if (from < 0) return toggleUnit(sel, unitId);
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  const selected = new Set(sel.selected);
  for (const id of order.slice(lo, hi + 1)) selected.add(id);
  return { selected, anchor: unitId };
}

/** Replaces the selection with the units that match `predicate` (e.g. every released unit). */
export function selectWhere<T extends { id: string }>(units: readonly T[], predicate: (u: T) => boolean): Selection {
  const ids = units.filter(predicate).map((u) => u.id);
  return { selected: new Set(ids), anchor: ids[ids.length - 1] ?? null };
}

/** Drops ids the node no longer has (after a refresh). */
export function pruneSelection(sel: Selection, order: readonly string[]): Selection {
  const present = new Set(order);
  const selected = new Set([...sel.selected].filter((id) => present.has(id)));
  if (selected.size === sel.selected.size) return sel;
  return { selected, anchor: sel.anchor && present.has(sel.anchor) ? sel.anchor : null };
}

/** Where arrow keys move focus in a grid of `columns` cells per row; stays inside the grid. */
export function moveFocus(index: number, key: string, count: number, columns: number): number {
  const next =
    key === 'ArrowLeft'
      ? index - 1
      : key === 'ArrowRight'
        ? index + 1
        : key === 'ArrowUp'
          ? index - columns
          : key === 'ArrowDown'
            ? index + columns
            : key === 'Home'
              ? 0
              : key === 'End'
                ? count - 1
                : index;
  return next < 0 || next >= count ? index : next;
}

/** Selected ids in node order. */
export function orderedSelection(sel: Selection, order: readonly string[]): string[] {
  return order.filter((id) => sel.selected.has(id));
}

/**
 * Drag: the units inside the box spanned by two cells of a grid `columns` wide, added to
 * `base` (the selection when the drag began).
 */
export function selectBox(base: Selection, order: readonly string[], columns: number, from: number, to: number): Selection {
  const [r1, c1, r2, c2] = [Math.floor(from / columns), from % columns, Math.floor(to / columns), to % columns];
  const selected = new Set(base.selected);
  order.forEach((id, i) => {
    const r = Math.floor(i / columns);
    const c = i % columns;
    if (r >= Math.min(r1, r2) && r <= Math.max(r1, r2) && c >= Math.min(c1, c2) && c <= Math.max(c1, c2)) selected.add(id);
  });
  return { selected, anchor: order[to] ?? base.anchor };
}
