import { describe, expect, it } from 'vitest';
import { paramsWith, shift, ticks, windowFromParams, zoomTo, zooms } from './window';

const now = Date.parse('2026-06-01T12:00:00.000Z');

describe('the timeline window (search params tlZoom, tlFrom)', () => {
  it('defaults to 7 days with now a third of the way in; reads and writes the params', () => {
    const w = windowFromParams(new URLSearchParams(), now);
    expect(w.zoom).toBe('7d');
    expect(w.to - w.from).toBe(zooms['7d']);
    expect(now - w.from).toBe(Math.round(zooms['7d'] / 3));
    const p = paramsWith(new URLSearchParams('x=1'), { zoom: '6h', from: now, to: now + zooms['6h'] });
    expect(p.get('x')).toBe('1');
    expect(windowFromParams(p, 0)).toEqual({ zoom: '6h', from: now, to: now + zooms['6h'] });
    // An unknown zoom or a broken time falls back.
    expect(windowFromParams(new URLSearchParams('tlZoom=1y&tlFrom=soon'), now).zoom).toBe('7d');
  });

  it('zoom keeps the middle; prev/next move half a window; ticks fall on whole steps', () => {
    const w = { zoom: '24h' as const, from: now, to: now + zooms['24h'] };
    const z = zoomTo(w, '6h');
    expect((z.from + z.to) / 2).toBe((w.from + w.to) / 2);
    expect(shift(w, 1).from).toBe(now + zooms['24h'] / 2);
    expect(shift(w, -1).to).toBe(now + zooms['24h'] / 2);
    const t = ticks(w, () => 0);
    expect(t[0]).toBe(now);
    expect(t).toHaveLength(8);
  });
});
