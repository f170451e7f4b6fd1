import { describe, expect, it } from 'vitest';
import { freeText, hasAtMostCodePoints } from './ids';

describe('hasAtMostCodePoints', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(hasAtMostCodePoints('😀'.repeat(10), 10)).toBe(true);
    expect(hasAtMostCodePoints('😀'.repeat(11), 10)).toBe(false);
    expect(hasAtMostCodePoints('a'.repeat(10), 10)).toBe(true);
    expect(hasAtMostCodePoints('a'.repeat(11), 10)).toBe(false);
    // A lone high surrogate counts once, as the spread did.
    expect(hasAtMostCodePoints('\ud800'.repeat(10), 10)).toBe(true);
    expect(hasAtMostCodePoints('\ud800'.repeat(11), 10)).toBe(false);
  });

  it('agrees with [...s].length on mixed text', () => {
    const samples = ['', 'abc', 'a😀b', '😀😀😀', '\ud83d', 'x\udc00y', 'é'.normalize('NFD').repeat(3)];
    for (const s of samples) for (let max = 0; max < 8; max++) expect(hasAtMostCodePoints(s, max)).toBe([...s].length <= max);
  });

  it('answers for 100 MiB from its length alone', () => {
    const huge = 'x'.repeat(100 * 1024 * 1024);
    expect(hasAtMostCodePoints(huge, 1000)).toBe(false);
    expect(freeText(1000).safeParse(huge).error?.issues).toHaveLength(1);
  });
});

describe('freeText', () => {
  it('refuses over-long text with one issue, and keeps the other checks', () => {
    const r = freeText(5).safeParse('\u0000'.repeat(50));
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['must be at most 5 characters']);
    expect(freeText(5).safeParse('a\u0000').error?.issues[0]?.message).toBe('must not contain NUL characters');
    expect(freeText(5).safeParse('a\ud800').error?.issues[0]?.message).toBe('must be valid Unicode (it contains a lone surrogate)');
    expect(freeText(5).safeParse('héllo').success).toBe(true);
  });
});
