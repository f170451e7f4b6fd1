import { Auth } from '@auth/core';
import { describe, expect, it } from 'vitest';
import { buildCookieOptions } from './cookie-options';
import { resolveSiteUrl } from './site';

const headersOf = (h: Record<string, string>) => new Headers(h);

describe('resolveSiteUrl', () => {
  it('follows the forwarded protocol and host, as Auth.js does', () => {
    expect(resolveSiteUrl(headersOf({ host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' }), {}).origin).toBe('http://127.0.0.1:3000');
    expect(resolveSiteUrl(headersOf({ host: 'internal:3000', 'x-forwarded-host': 'console.example', 'x-forwarded-proto': 'https' }), {}).origin).toBe(
      'https://console.example',
    );
    // No protocol header at all: Auth.js assumes https.
    expect(resolveSiteUrl(headersOf({ host: 'console.example' }), {}).origin).toBe('https://console.example');
  });

  it('prefers AUTH_URL (or NEXTAUTH_URL) to the request', () => {
    const plain = headersOf({ host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' });
    expect(resolveSiteUrl(plain, { AUTH_URL: 'https://console.example' }).origin).toBe('https://console.example');
    expect(resolveSiteUrl(plain, { NEXTAUTH_URL: 'https://console.example/api/auth' }).origin).toBe('https://console.example');
  });
});

describe('buildCookieOptions', () => {
  it('sets HttpOnly, SameSite=Lax, Path=/ always, and Secure on an https site only', () => {
    expect(buildCookieOptions(new URL('http://127.0.0.1:3000'), 60)).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', secure: false, maxAge: 60 });
    expect(buildCookieOptions(new URL('https://console.example'))).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', secure: true });
  });

  // The claim that matters: Secure exactly when Auth.js marks its own cookies Secure. Ask
  // Auth.js itself, the way next-auth's server-side helpers call it: a request to the action
  // URL built from the same headers and environment.
  it.each([
    ['plain http', { host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' }, {}],
    ['TLS at the proxy', { host: 'internal:3000', 'x-forwarded-host': 'console.example', 'x-forwarded-proto': 'https' }, {}],
    ['no forwarded protocol', { host: 'console.example' }, {}],
    ['AUTH_URL https over a plain request', { host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' }, { AUTH_URL: 'https://console.example' }],
    ['AUTH_URL http over a forwarded https', { host: 'internal:3000', 'x-forwarded-proto': 'https' }, { AUTH_URL: 'http://127.0.0.1:3000' }],
  ])('agrees with Auth.js: %s', async (_name, h: Record<string, string>, env: Record<string, string>) => {
    const site = resolveSiteUrl(headersOf(h), env);
    const res = await Auth(new Request(new URL('/api/auth/csrf', site)), { providers: [], secret: 'x'.repeat(32), trustHost: true, basePath: '/api/auth' });
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/csrf-token=/);
    expect(/;\s*Secure/i.test(setCookie)).toBe(buildCookieOptions(site).secure);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
  });
});
