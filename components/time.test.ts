import { describe, expect, it } from 'vitest';
import { formatDateTime, formatPeriod, formatRelative, otherZone } from './format';
import { exclusiveIsoToLastMinute, isoToWallTime, lastMinuteToExclusiveIso, wallTimeToIso } from './local-time';

// Issue 23 point 3: times on screen in the chosen zone, labelled with it; entered times read in it.
const BERLIN = 'Europe/Berlin';

describe('time on screen (issue 23)', () => {
  it('says UTC by default, another zone by its short name, or by its IANA name where English has none', () => {
    expect(formatDateTime('2026-12-03T09:00:00Z')).toBe('3 Dec 2026, 09:00 UTC');
    expect(formatDateTime('2026-12-03T09:00:00Z', BERLIN)).toBe('3 Dec 2026, 10:00 CET');
    expect(formatDateTime('2026-07-03T09:00:00Z', BERLIN)).toBe('3 Jul 2026, 11:00 CEST');
    expect(formatDateTime('2026-07-03T09:00:00Z', 'Europe/London')).toBe('3 Jul 2026, 10:00 BST');
    // "GMT-5" is an offset, not a zone (and "CST" would be China's as well as Chicago's).
    expect(formatDateTime('2026-12-03T09:00:00Z', 'America/New_York')).toBe('3 Dec 2026, 04:00 America/New_York');
    expect(formatDateTime('2026-12-03T09:00:00Z', 'Asia/Kolkata')).toBe('3 Dec 2026, 14:30 Asia/Kolkata');
    expect(formatDateTime('2026-12-03T09:00:00Z', 'Europe/London')).toBe('3 Dec 2026, 09:00 GMT');
    expect(formatDateTime('2026-07-03T09:00:00Z', 'Europe/Dublin')).toBe('3 Jul 2026, 10:00 Europe/Dublin');
    expect(formatDateTime('2026-12-03T00:05:00Z', 'UTC')).toBe('3 Dec 2026, 00:05 UTC');
    expect(formatPeriod('2026-12-03T09:00:00Z', undefined, BERLIN)).toBe('3 Dec 2026, 10:00 CET → open-ended');
    expect(formatPeriod('2026-12-03T09:00:00Z', '2026-12-04T09:00:00Z')).toBe('3 Dec 2026, 09:00 UTC → 4 Dec 2026, 09:00 UTC');
  });

  it('gives the other zone for the hover: UTC beside a local time, the browser’s zone beside UTC once known, else the exact instant', () => {
    const at = '2026-12-03T09:00:27Z';
    expect(otherZone(at, BERLIN, BERLIN)).toBe('3 Dec 2026, 09:00 UTC');
    expect(otherZone(at, 'UTC', BERLIN)).toBe('3 Dec 2026, 10:00 CET');
    expect(otherZone(at, 'UTC', undefined)).toBe(at);
  });
});

describe('relative times', () => {
  it('say the largest unit the time spans one of', () => {
    const now = Date.parse('2026-12-03T12:00:00Z');
    const at = (s: number) => new Date(now + s * 1000).toISOString();
    expect(formatRelative(at(0), now)).toBe('now');
    expect(formatRelative(at(-59), now)).toBe('59 seconds ago');
    expect(formatRelative(at(-60), now)).toBe('1 minute ago');
    expect(formatRelative(at(-3599), now)).toBe('60 minutes ago');
    expect(formatRelative(at(-3600), now)).toBe('1 hour ago');
    expect(formatRelative(at(7200), now)).toBe('in 2 hours');
    expect(formatRelative(at(-86400), now)).toBe('yesterday');
    expect(formatRelative(at(3 * 86400), now)).toBe('in 3 days');
  });
});

describe('entering a time in the chosen zone (issue 23)', () => {
  it('reads 09:00 in Berlin as 08:00Z in winter and 07:00Z in summer, in UTC as 09:00Z, and shows it back the same', () => {
    expect(wallTimeToIso('2026-12-03T09:00', BERLIN)).toBe('2026-12-03T08:00:00.000Z');
    expect(wallTimeToIso('2026-07-03T09:00', BERLIN)).toBe('2026-07-03T07:00:00.000Z');
    expect(wallTimeToIso('2026-12-03T09:00', 'UTC')).toBe('2026-12-03T09:00:00.000Z');
    expect(wallTimeToIso('2026-12-03T09:00', 'America/New_York')).toBe('2026-12-03T14:00:00.000Z');
    expect(wallTimeToIso('2026-12-03T09:00', 'Asia/Kolkata')).toBe('2026-12-03T03:30:00.000Z');
    expect(isoToWallTime('2026-12-03T08:00:00.000Z', BERLIN)).toBe('2026-12-03T09:00');
    expect(isoToWallTime('2026-12-03T23:30:00.000Z', BERLIN)).toBe('2026-12-04T00:30');
    expect(isoToWallTime('2026-12-03T09:00:00.000Z', 'UTC')).toBe('2026-12-03T09:00');
  });

  it('takes a time the clocks skip as the same distance past the skip, and a time they show twice as the earlier', () => {
    // 2026-03-29 02:00 CET → 03:00 CEST: 02:30 never shows; read with the offset before (+1), it is 03:30 CEST.
    expect(wallTimeToIso('2026-03-29T02:30', BERLIN)).toBe('2026-03-29T01:30:00.000Z');
    expect(isoToWallTime('2026-03-29T01:30:00.000Z', BERLIN)).toBe('2026-03-29T03:30');
    // Just around it, nothing moves.
    expect(wallTimeToIso('2026-03-29T01:59', BERLIN)).toBe('2026-03-29T00:59:00.000Z');
    expect(wallTimeToIso('2026-03-29T03:00', BERLIN)).toBe('2026-03-29T01:00:00.000Z');
    // 2026-10-25 03:00 CEST → 02:00 CET: 02:30 shows twice, at 00:30Z and at 01:30Z; the first is taken.
    expect(wallTimeToIso('2026-10-25T02:30', BERLIN)).toBe('2026-10-25T00:30:00.000Z');
    expect(wallTimeToIso('2026-10-25T03:00', BERLIN)).toBe('2026-10-25T02:00:00.000Z');
    expect(wallTimeToIso('2026-10-25T01:59', BERLIN)).toBe('2026-10-24T23:59:00.000Z');
    // New York's changes, the other way round the offset.
    expect(wallTimeToIso('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(wallTimeToIso('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses what is no date', () => {
    expect(wallTimeToIso('', BERLIN)).toBeNull();
    expect(wallTimeToIso('tomorrow', BERLIN)).toBeNull();
    expect(wallTimeToIso('2026-13-40T09:00', 'UTC')).toBeNull();
    expect(wallTimeToIso('2026-12-03T09:00:30', 'UTC')).toBe('2026-12-03T09:00:30.000Z');
  });
});

describe('a range takes in its whole last minute (issue 23)', () => {
  it('sends "until 21:24" as before 21:25 to an exclusive `until`, and shows it back as 21:24', () => {
    expect(lastMinuteToExclusiveIso('2026-12-03T21:24', 'UTC')).toBe('2026-12-03T21:25:00.000Z');
    expect(lastMinuteToExclusiveIso('2026-12-03T21:24', BERLIN)).toBe('2026-12-03T20:25:00.000Z');
    expect(lastMinuteToExclusiveIso('2026-12-03T23:59', 'UTC')).toBe('2026-12-04T00:00:00.000Z');
    expect(lastMinuteToExclusiveIso('nonsense', 'UTC')).toBeNull();
    expect(exclusiveIsoToLastMinute('2026-12-03T21:25:00.000Z', 'UTC')).toBe('2026-12-03T21:24');
    expect(exclusiveIsoToLastMinute('2026-12-03T20:25:00.000Z', BERLIN)).toBe('2026-12-03T21:24');
    // A link with seconds (typed by hand) shows the minute it ends in.
    expect(exclusiveIsoToLastMinute('2026-12-03T21:24:30.000Z', 'UTC')).toBe('2026-12-03T21:24');
  });
});
