import { describe, expect, it } from 'vitest';
import type { UnitView } from '../trpc-types';
import { actionsForSelection } from './selection-actions';

const units: UnitView[] = [
  { id: 'gpu-0', state: 'released', reservationId: 'r1' },
  { id: 'gpu-1', state: 'reserved', reservationId: 'r1' },
  { id: 'gpu-2', state: 'reserved', reservationId: 'r1' },
  { id: 'gpu-3', state: 'free' },
  { id: 'gpu-4', state: 'occupied', vmId: 'vm-x' },
  { id: 'gpu-5', state: 'reserved', reservationId: 'r2' },
];
const offered = new Map([
  ['r1', ['release', 'reclaim'] as const],
  ['r2', [] as const],
]);

describe('actionsForSelection', () => {
  it('offers release only on idle reserved units of one reservation that offers it, reclaim on any of its units', () => {
    expect(actionsForSelection(units, ['gpu-1', 'gpu-2'], offered, false)).toMatchObject({ release: 'r1', reclaim: 'r1', reserve: false });
    expect(actionsForSelection(units, ['gpu-0', 'gpu-1'], offered, false)).toMatchObject({ release: null, reclaim: 'r1' });
    expect(actionsForSelection(units, ['gpu-1', 'gpu-5'], offered, true)).toMatchObject({
      release: null,
      reclaim: null,
      reserve: false,
      hint: 'Select units of one reservation.',
    });
    expect(actionsForSelection(units, ['gpu-5'], offered, false)).toMatchObject({ release: null, reclaim: null, hint: 'You may not act on units of r2.' });
  });

  it('offers reserve on units no reservation holds now, only where the server offers reserving', () => {
    expect(actionsForSelection(units, ['gpu-3', 'gpu-4'], offered, true)).toMatchObject({ reserve: true, release: null, reclaim: null });
    expect(actionsForSelection(units, ['gpu-3', 'gpu-4'], offered, false)).toMatchObject({
      reserve: false,
      hint: 'These units belong to no reservation you manage.',
    });
    expect(actionsForSelection(units, ['gpu-3', 'gpu-1'], offered, true).reserve).toBe(false);
    expect(actionsForSelection(units, [], offered, true)).toMatchObject({ reserve: false, hint: 'Select units to act on.' });
  });
});
