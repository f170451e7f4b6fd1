/**
 * HTTP methods and `Allow`, one statement for the REST pipeline (server/rest/route.ts: a route's
 * own 405s and OPTIONS) and the proxy (proxy.ts: 405s for methods no route file can export), so
 * the two always answer a path with the same `Allow` (docs/product.md §5).
 */

/** The methods a Next route file can export; any other never reaches one. */
export const httpMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** The methods a route declares; HEAD (where GET is) and OPTIONS follow from them. */
export type DeclaredMethod = Exclude<HttpMethod, 'HEAD' | 'OPTIONS'>;

/**
 * The `Allow` of a route (docs/product.md §5: a method a path does not declare is 405 with `Allow`).
 * @param declared the route's declared methods, in the route table's order.
 * @returns those, HEAD where GET is, and OPTIONS, e.g. `GET, POST, HEAD, OPTIONS`.
 */
export function allowHeader(declared: readonly string[]): string {
  return [...declared, ...(declared.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
}
