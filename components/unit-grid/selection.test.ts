import { unitStates } from '@/server/nodes/unit-states';
import { describe, expect, it } from 'vitest';
import {
  emptySelection,
  endExtension,
  extendSelection,
  moveFocus,
  orderedSelection,
  pruneSelection,
  selectBox,
  selectRange,
  selectWhere,
  toggleUnit,
} from './selection';
import { unitStyles } from './unit-styles';

const order = ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7'];

describe('grid selection', () => {
  it('click toggles a unit', () => {
    const one = toggleUnit(emptySelection, 'gpu-2');
    expect([...one.selected]).toEqual(['gpu-2']);
    expect([...toggleUnit(one, 'gpu-2').selected]).toEqual([]);
  });

  it('shift-click selects the range from the last clicked unit, either direction', () => {
    const down = selectRange(toggleUnit(emptySelection, 'gpu-1'), order, 'gpu-4');
    expect(orderedSelection(down, order)).toEqual(['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4']);
    const up = selectRange(toggleUnit(emptySelection, 'gpu-6'), order, 'gpu-5');
    expect(orderedSelection(up, order)).toEqual(['gpu-5', 'gpu-6']);
    // A range adds to what was selected before.
    const more = selectRange(toggleUnit(down, 'gpu-7'), order, 'gpu-7');
    expect(orderedSelection(more, order)).toEqual(['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-7']);
  });

  it('shift-click without an anchor toggles', () => {
    expect([...selectRange(emptySelection, order, 'gpu-3').selected]).toEqual(['gpu-3']);
  });

  it('select all released picks released and spot-occupied units', () => {
    const units = order.map((id, i) => ({ id, state: i < 3 ? 'released' : i === 3 ? 'spot-occupied' : 'reserved' }));
    const sel = selectWhere(units, (u) => u.state === 'released' || u.state === 'spot-occupied');
    expect(orderedSelection(sel, order)).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
  });

  it('drops units that left the node', () => {
    const sel = selectRange(toggleUnit(emptySelection, 'gpu-5'), order, 'gpu-7');
    expect(orderedSelection(pruneSelection(sel, order.slice(0, 6)), order)).toEqual(['gpu-5']);
  });

  it('drag selects the box between two cells, added to what was selected', () => {
    const base = toggleUnit(emptySelection, 'gpu-7');
    // 4 columns: gpu-1 (row 0, col 1) to gpu-6 (row 1, col 2) spans cols 1–2 of both rows.
    expect(orderedSelection(selectBox(base, order, 4, 1, 6), order)).toEqual(['gpu-1', 'gpu-2', 'gpu-5', 'gpu-6', 'gpu-7']);
    expect(orderedSelection(selectBox(emptySelection, order, 4, 6, 1), order)).toEqual(['gpu-1', 'gpu-2', 'gpu-5', 'gpu-6']);
    expect(orderedSelection(selectBox(emptySelection, order, 8, 2, 2), order)).toEqual(['gpu-2']);
  });

  it('Shift+Arrow extends the range from the focused unit, and shrinks it going back', () => {
    const one = extendSelection(emptySelection, order, 'gpu-2', 'gpu-3');
    expect(orderedSelection(one, order)).toEqual(['gpu-2', 'gpu-3']);
    const two = extendSelection(one, order, 'gpu-3', 'gpu-4');
    expect(orderedSelection(two, order)).toEqual(['gpu-2', 'gpu-3', 'gpu-4']);
    // Back past the anchor: the range turns round it, the units beyond are let go.
    const back = extendSelection(extendSelection(extendSelection(two, order, 'gpu-4', 'gpu-3'), order, 'gpu-3', 'gpu-2'), order, 'gpu-2', 'gpu-1');
    expect(orderedSelection(back, order)).toEqual(['gpu-1', 'gpu-2']);
    expect(back.anchor).toBe('gpu-2');
  });

  it('Shift+Arrow adds to what was selected, and a new run begins where focus is', () => {
    const clicked = toggleUnit(emptySelection, 'gpu-0');
    const run = extendSelection(clicked, order, 'gpu-4', 'gpu-5');
    expect(orderedSelection(run, order)).toEqual(['gpu-0', 'gpu-4', 'gpu-5']);
    // ArrowDown from gpu-5 (8 columns would leave the grid; 4 columns: gpu-1 → gpu-5).
    const down = extendSelection(toggleUnit(emptySelection, 'gpu-1'), order, 'gpu-1', order[moveFocus(1, 'ArrowDown', 8, 4)]!);
    expect(orderedSelection(down, order)).toEqual(['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5']);
    // A plain arrow ends the run: the next Shift+Arrow starts from the focused unit, keeping all.
    const next = extendSelection(endExtension(run), order, 'gpu-7', 'gpu-6');
    expect(orderedSelection(next, order)).toEqual(['gpu-0', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
    expect(endExtension(emptySelection)).toBe(emptySelection);
  });

  it('a click ends a Shift+Arrow run', () => {
    const run = extendSelection(emptySelection, order, 'gpu-0', 'gpu-1');
    const clicked = toggleUnit(run, 'gpu-5');
    expect(clicked.base).toBeUndefined();
    expect(orderedSelection(extendSelection(clicked, order, 'gpu-5', 'gpu-6'), order)).toEqual(['gpu-0', 'gpu-1', 'gpu-5', 'gpu-6']);
  });

  it('arrow keys move focus within the grid', () => {
    expect(moveFocus(0, 'ArrowLeft', 8, 4)).toBe(0);
    expect(moveFocus(0, 'ArrowRight', 8, 4)).toBe(1);
    expect(moveFocus(1, 'ArrowDown', 8, 4)).toBe(5);
    expect(moveFocus(5, 'ArrowDown', 8, 4)).toBe(5);
    expect(moveFocus(6, 'Home', 8, 4)).toBe(0);
  });
});

describe('unit state styles (docs/product.md §3)', () => {
  it('gives every state its own colour and its own non-colour cue', () => {
    const styles = unitStates.map((s) => unitStyles[s]);
    expect(new Set(styles.map((s) => s.cell)).size).toBe(unitStates.length);
    expect(new Set(styles.map((s) => s.glyph)).size).toBe(unitStates.length);
    expect(Object.keys(unitStyles).sort()).toEqual([...unitStates].sort());
  });

  it('marks occupied states with a dot', () => {
    for (const s of unitStates) expect(unitStyles[s].glyph.endsWith('●')).toBe(s.endsWith('occupied'));
  });
});
