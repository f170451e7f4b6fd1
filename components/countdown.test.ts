import { describe, expect, it } from 'vitest';
import { formatCountdown, reclaimIn } from './countdown';

const now = Date.parse('2026-12-09T06:55:00Z');
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe('a scheduled reclaim’s deadline in words (issue 22)', () => {
  it('counts down to the minute, rounding up, and says when it has come', () => {
    expect(formatCountdown(at(125), now)).toBe('2 h 5 min');
    expect(formatCountdown(at(120), now)).toBe('2 h');
    expect(formatCountdown(at(0.5), now)).toBe('1 min');
    expect(formatCountdown(at(3 * 1440 + 4 * 60 + 10), now)).toBe('3 days 4 h');
    expect(formatCountdown(at(1440 + 30), now)).toBe('1 day');
    expect(formatCountdown(at(-1), now)).toBe('due now');
  });

  it('says "reclaim in …" within a day, "reclaim at …" beyond, "due now" once past', () => {
    expect(reclaimIn(at(125), now)).toBe('reclaim in 2 h 5 min');
    expect(reclaimIn(at(2 * 1440 + 125), now)).toBe('reclaim at 11 Dec 2026, 09:00 UTC');
    expect(reclaimIn(at(-5), now)).toBe('reclaim due now');
  });
});

describe('a deadline in the chosen zone (issue 23)', () => {
  it('says the time beyond a day in that zone, labelled', () => {
    expect(reclaimIn(at(2 * 1440 + 125), now, 'Europe/Berlin')).toBe('reclaim at 11 Dec 2026, 10:00 CET');
  });
});
