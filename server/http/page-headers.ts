/**
 * The request headers the proxy (proxy.ts) sets for the console pages behind it. Both sides
 * import the names from here: a page importing proxy.ts would load the proxy's code into the
 * page's module graph for one string.
 */

/** The header that tells the console layout which page a signed-out visitor asked for. */
export const PATHNAME_HEADER = 'x-console-path';

/** The request header that carries this response's CSP nonce (Next's convention). */
export const NONCE_HEADER = 'x-nonce';
