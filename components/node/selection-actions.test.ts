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
  it('offers release only on idle reserved units of one reservation that offers it, reclaim where it has something to take back', () => {
    expect(actionsForSelection(units, ['gpu-1', 'gpu-2'], offered, false)).toMatchObject({
      release: 'r1',
      reclaim: null,
      reserve: false,
      hint: '2 units of r1 selected.',
    });
    expect(actionsForSelection(units, ['gpu-0', 'gpu-1'], offered, false)).toMatchObject({ release: null, reclaim: 'r1' });
    expect(actionsForSelection(units, ['gpu-1', 'gpu-5'], offered, true)).toMatchObject({
      release: null,
      reclaim: null,
      reserve: false,
      hint: 'Select units of one reservation.',
    });
    expect(actionsForSelection(units, ['gpu-5'], offered, false)).toMatchObject({ release: null, reclaim: null, hint: 'You may not act on units of r2.' });
  });

  it('offers no reclaim on units a reservation does not hold yet, nor on idle reserved units alone', () => {
    const pending: UnitView[] = [
      { id: 'gpu-0', state: 'free', reservationId: 'r3' },
      { id: 'gpu-1', state: 'reserved-occupied', reservationId: 'r1', vmId: 'vm-s' },
      { id: 'gpu-2', state: 'reserved', reservationId: 'r1' },
    ];
    const both = new Map([...offered, ['r3', ['release', 'reclaim'] as const]]);
    expect(actionsForSelection(pending, ['gpu-0'], both, false)).toMatchObject({
      reclaim: null,
      release: null,
      hint: 'r3 does not hold these units yet: there is nothing to release or reclaim.',
    });
    expect(actionsForSelection(pending, ['gpu-2'], both, false)).toMatchObject({ reclaim: null, release: 'r1' });
    expect(actionsForSelection(pending, ['gpu-1', 'gpu-2'], both, false)).toMatchObject({ reclaim: 'r1', release: null });
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
