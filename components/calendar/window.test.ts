import { describe, expect, it } from 'vitest';
import { assignLanes, barPosition, calendarTicks, readCalendarWindow, shiftedFrom } from './window';

const NOW = Date.parse('2026-12-06T20:41:00.000Z');

describe('the calendar window (docs/product.md §5.8 "Fleet calendar")', () => {
  it('follows now by default: a quarter of the span before the current hour', () => {
    expect(readCalendarWindow({}, NOW)).toEqual({ span: '7d', from: '2026-12-05T02:00:00.000Z', to: '2026-12-12T02:00:00.000Z', pinned: false });
    expect(readCalendarWindow({ span: '24h' }, NOW)).toMatchObject({ from: '2026-12-06T14:00:00.000Z', to: '2026-12-07T14:00:00.000Z' });
  });

  it('keeps a pinned from, ignores one that is no instant and an unknown span', () => {
    expect(readCalendarWindow({ span: '30d', from: '2026-11-01T00:00:00.000Z' }, NOW)).toEqual({
      span: '30d',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      pinned: true,
    });
    expect(readCalendarWindow({ span: 'year', from: 'yesterday' }, NOW)).toMatchObject({ span: '7d', pinned: false });
  });

  it('steps a span earlier or later, and ticks across it', () => {
    const w = readCalendarWindow({ span: '24h', from: '2026-12-01T00:00:00.000Z' }, NOW);
    expect(shiftedFrom(w, -1)).toBe('2026-11-30T00:00:00.000Z');
    expect(shiftedFrom(w, 1)).toBe('2026-12-02T00:00:00.000Z');
    expect(calendarTicks(w)).toHaveLength(8);
  });

  it('places bars clipped to the window, open ends to its end, and none outside it', () => {
    const w = readCalendarWindow({ span: '24h', from: '2026-12-01T00:00:00.000Z' }, NOW);
    expect(barPosition(w, '2026-12-01T06:00:00.000Z', '2026-12-01T12:00:00.000Z')).toEqual({ left: 25, width: 25 });
    expect(barPosition(w, '2026-11-20T00:00:00.000Z', undefined)).toEqual({ left: 0, width: 100 });
    expect(barPosition(w, '2026-12-02T00:00:00.000Z', undefined)).toBeNull();
    expect(barPosition(w, '2026-11-20T00:00:00.000Z', '2026-12-01T00:00:00.000Z')).toBeNull();
  });

  it('puts overlapping bars on separate lanes and reuses a lane once its bar ended', () => {
    const bars = [
      { startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2026-12-01T10:00:00.000Z' },
      { startsAt: '2026-12-01T05:00:00.000Z' },
      { startsAt: '2026-12-01T10:00:00.000Z', endsAt: '2026-12-01T12:00:00.000Z' },
    ];
    expect(assignLanes(bars)).toEqual({ lanes: [0, 1, 0], count: 2 });
    expect(assignLanes([])).toEqual({ lanes: [], count: 1 });
  });
});
