/** Known-device cookies (docs/product.md §9.3): only this site can mint one, and nothing malformed counts. */
import { describe, expect, it } from 'vitest';
import { deviceToken, knownDeviceCookieValue, parseKnownDeviceCookie } from './known-device-cookie';

const SECRET = 'a'.repeat(64);
const id = (n: number) => `kd_${String(n).padStart(32, '0')}`;

describe('known-device cookie', () => {
  it('reads back the ids it wrote, newest first, at most five, without repeats', () => {
    let value = '';
    for (let n = 1; n <= 7; n++) value = knownDeviceCookieValue(id(n), parseKnownDeviceCookie(value, SECRET), SECRET);
    expect(parseKnownDeviceCookie(value, SECRET)).toEqual([id(7), id(6), id(5), id(4), id(3)]);
    expect(parseKnownDeviceCookie(knownDeviceCookieValue(id(5), parseKnownDeviceCookie(value, SECRET), SECRET), SECRET)).toEqual([
      id(5),
      id(7),
      id(6),
      id(4),
      id(3),
    ]);
  });

  it('ignores forged, malformed, foreign-secret and oversized entries, and everything without a secret', () => {
    const good = deviceToken(id(1), SECRET);
    const forged = `${id(2)}:${good.split(':')[1]}`;
    expect(parseKnownDeviceCookie([forged, deviceToken(id(3), 'other-secret'), 'kd_x:abc', `${good}:extra`, good].join('|'), SECRET)).toEqual([id(1)]);
    // Only the first five entries are read.
    expect(parseKnownDeviceCookie(['a', 'b', 'c', 'd', 'e', good].join('|'), SECRET)).toEqual([]);
    expect(parseKnownDeviceCookie(good, '')).toEqual([]);
    expect(parseKnownDeviceCookie(undefined, SECRET)).toEqual([]);
    expect(parseKnownDeviceCookie(`${good}|${'x'.repeat(2000)}`, SECRET)).toEqual([]);
  });
});
