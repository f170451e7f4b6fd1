import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce } from './content-security-policy';

describe('contentSecurityPolicy', () => {
  it('production: scripts only with the nonce (strict-dynamic), no eval, no framing, forms and base here, no plugins', () => {
    const policy = contentSecurityPolicy('abc123==');
    const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(directives['style-src']).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['base-uri']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(policy).not.toContain('unsafe-eval');
  });

  it('dev relaxes what next dev needs: eval, inline styles, the hot-reload socket', () => {
    const policy = contentSecurityPolicy('n', { dev: true });
    expect(policy).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'");
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("connect-src 'self' ws: wss:");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});

describe('newNonce', () => {
  it('is 128 random bits in base64, new every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
