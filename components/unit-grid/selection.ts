/**
 * Grid selection as pure functions over unit ids in the node's order, so that the rules
 * (click toggles, shift-click selects a range, Shift+Arrow extends it, select all released) are
 * testable alone. `base` is there while Shift+Arrow extends: the selection the run began from,
 * so that moving back towards the anchor shrinks the range as a spreadsheet does.
 */
export type Selection = { selected: ReadonlySet<string>; anchor: string | null; base?: ReadonlySet<string> };

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

/** The units from `a` to `b` inclusive, in node order (either direction); none when one is missing. */
function span(order: readonly string[], a: string, b: string): readonly string[] {
  const [i, j] = [order.indexOf(a), order.indexOf(b)];
  if (i < 0 || j < 0) return [];
  return order.slice(Math.min(i, j), Math.max(i, j) + 1);
}

/**
 * Shift+Arrow from the focused unit `from` to `to`: the range from the anchor to `to` on top
 * of what was selected when the run began. A run begins at the focused unit (a spreadsheet's
 * active cell) and lasts while Shift+Arrow goes on; moving back shrinks it.
 */
export function extendSelection(sel: Selection, order: readonly string[], from: string, to: string): Selection {
  const base = sel.base ?? sel.selected;
  const anchor = sel.base && sel.anchor !== null ? sel.anchor : from;
  return { selected: new Set([...base, ...span(order, anchor, to)]), anchor, base };
}

/** A move without Shift ends a Shift+Arrow run: the selection stays, the next run begins afresh. */
export function endExtension(sel: Selection): Selection {
  return sel.base ? { selected: sel.selected, anchor: sel.anchor } : sel;
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
