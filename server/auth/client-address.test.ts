import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxyHops } from './client-address';

const xff = (value?: string) => new Headers(value === undefined ? {} : { 'x-forwarded-for': value });

describe('trustedProxyHops (TRUSTED_PROXY_HOPS)', () => {
  it('is 0 unless set to a small whole number', () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: '' })).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: '2' })).toBe(2);
    for (const bad of ['-1', '1.5', 'yes', '17']) expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: bad })).toBe(0);
  });
});

describe('clientAddress', () => {
  it('with no trusted proxy, knows no address, whatever the client sends (loopback tests and demos share none)', () => {
    expect(clientAddress(xff('203.0.113.9'), 0)).toBeNull();
    expect(clientAddress(xff('127.0.0.1'), 0)).toBeNull();
  });

  it('takes the entry the outermost trusted proxy appended, ignoring what the client wrote left of it', () => {
    expect(clientAddress(xff('203.0.113.9'), 1)).toBe('203.0.113.9');
    // The client claimed 1.2.3.4; our one proxy saw 203.0.113.9.
    expect(clientAddress(xff('1.2.3.4, 203.0.113.9'), 1)).toBe('203.0.113.9');
    // Two proxies: the outer one appended the client, the inner one appended the outer one.
    expect(clientAddress(xff('1.2.3.4, 203.0.113.9, 10.0.0.2'), 2)).toBe('203.0.113.9');
    // Fewer entries than hops: the leftmost.
    expect(clientAddress(xff('203.0.113.9'), 3)).toBe('203.0.113.9');
  });

  it('normalises ports, brackets, case and IPv4-mapped IPv6; refuses what is no address', () => {
    expect(clientAddress(xff('203.0.113.9:5555'), 1)).toBe('203.0.113.9');
    expect(clientAddress(xff('[2001:DB8::1]:443'), 1)).toBe('2001:db8::1');
    expect(clientAddress(xff('2001:DB8::1'), 1)).toBe('2001:db8::1');
    expect(clientAddress(xff('::ffff:203.0.113.9'), 1)).toBe('203.0.113.9');
    for (const bad of ['unknown', '', ' , ', 'evil.example', "1.2.3.4'; drop table x"]) expect(clientAddress(xff(bad), 1)).toBeNull();
    expect(clientAddress(xff(), 1)).toBeNull();
  });
});
