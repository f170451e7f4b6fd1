/**
 * The console's Content-Security-Policy (docs/product.md §9.3), set per request by
 * proxy.ts: Next reads the nonce from the request's policy header and puts it on every script
 * it renders (Next's guide "Content Security Policy", nonces with Proxy), so only the scripts
 * this response carries run — an injected `<script>` or `onclick=` does not.
 */

/** A fresh nonce: 128 random bits, base64 (what `'nonce-…'` takes). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy for one page response.
 * - `script-src 'nonce-…' 'strict-dynamic'`: Next's inline bootstrap scripts carry the nonce and
 *   the chunks they load inherit the trust; `'self'` only for browsers without strict-dynamic.
 * - `style-src-attr 'unsafe-inline'`: the unit grid sets its column count and stripe patterns in
 *   `style` attributes rendered on the server; attributes run no script, and `<style>` elements
 *   still need the nonce.
 * - no framing (`frame-ancestors 'none'`, with X-Frame-Options for older browsers), forms post
 *   only here, no plugins, no `<base>` elsewhere.
 * @param dev `next dev` needs `'unsafe-eval'` (React's dev tools rebuild stacks with eval), inline
 *   styles for its overlay, and a WebSocket for hot reload.
 */
export function contentSecurityPolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    ['style-src', "'self'", ...(dev ? ["'unsafe-inline'"] : [`'nonce-${nonce}'`])],
    ['style-src-attr', "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...(dev ? ['ws:', 'wss:'] : [])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}
