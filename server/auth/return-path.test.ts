import { describe, expect, it } from 'vitest';
import { redirectWithinSite, sanitizeReturnPath } from './return-path';

const SITE = 'https://console.example';

describe('sanitizeReturnPath', () => {
  it('keeps a page of this site with its query and hash', () => {
    expect(sanitizeReturnPath('/nodes/acme-h100-02?x=1#y', SITE)).toBe('/nodes/acme-h100-02?x=1#y');
    expect(sanitizeReturnPath('/', SITE)).toBe('/');
    expect(sanitizeReturnPath('/sign-in?next=%2Fnodes', SITE)).toBe('/sign-in?next=%2Fnodes');
    // An absolute URL on this very site is reduced to its path.
    expect(sanitizeReturnPath('https://console.example/nodes/a?b=c#d', SITE)).toBe('/nodes/a?b=c#d');
    // Encoded slashes are a path segment of this site, not a host.
    expect(sanitizeReturnPath('/%2F/evil.example', SITE)).toBe('/%2F/evil.example');
  });

  it.each([
    ['/\\evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['//evil.example'],
    ['\\\\evil.example'],
    ['/\\/evil.example'],
    ['https://evil.example'],
    ['http://console.example/nodes'], // another scheme is another origin
    ['https://console.example.evil.example/'],
    ['https://console.example@evil.example/'],
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['blob:https://console.example/1f0e'],
    // Resolve on this site but normalise to `//evil.example`, which a browser reads as a host.
    ['/.//evil.example'],
    ['/..//evil.example'],
    ['/a/..//evil.example'],
    ['https://console.example//evil.example'],
  ])('refuses %j', (raw) => {
    expect(sanitizeReturnPath(raw, SITE)).toBe('/');
  });

  it('falls back for what is no URL at all, or no string', () => {
    expect(sanitizeReturnPath('', SITE)).toBe('/');
    expect(sanitizeReturnPath('http://[', SITE)).toBe('/');
    expect(sanitizeReturnPath(null, SITE)).toBe('/');
    expect(sanitizeReturnPath(undefined, SITE)).toBe('/');
    expect(sanitizeReturnPath(['/nodes'], SITE)).toBe('/');
    expect(sanitizeReturnPath('//evil.example', SITE, '/fleet')).toBe('/fleet');
  });

  it('answers a path that is itself safe to redirect to (a fixed point)', () => {
    for (const raw of ['/nodes/x?y#z', '/\\evil.example', '/.//evil.example', '/a/b/../c', 'nodes/x']) {
      const once = sanitizeReturnPath(raw, SITE);
      expect(once.startsWith('/') && !once.startsWith('//')).toBe(true);
      expect(new URL(once, SITE).origin).toBe(SITE);
      expect(sanitizeReturnPath(once, SITE)).toBe(once);
    }
  });
});

describe('redirectWithinSite (Auth.js callbacks.redirect)', () => {
  it('answers an absolute URL on the base, and the base for anything else', () => {
    expect(redirectWithinSite({ url: '/nodes/acme-h100-02?x=1#y', baseUrl: SITE })).toBe('https://console.example/nodes/acme-h100-02?x=1#y');
    expect(redirectWithinSite({ url: 'https://console.example/sign-in', baseUrl: SITE })).toBe('https://console.example/sign-in');
    for (const url of ['/\\evil.example', '/\t/evil.example', '//evil.example', 'https://evil.example', 'javascript:alert(1)']) {
      expect(redirectWithinSite({ url, baseUrl: SITE })).toBe('https://console.example/');
    }
  });
});
