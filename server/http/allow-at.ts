/**
 * The proxy's `Allow` for a concrete path (proxy.ts), from the generated method map
 * (./methods.generated.ts) rather than the route table: the table imports every verb, and the
 * proxy runs in front of every request, pages included, so it must not load them.
 */
import { allowHeader } from './methods';
import { declaredMethods } from './methods.generated';

/** Each path template as a pattern of concrete paths (`{x}` is one segment), in the map's order. */
const templates = Object.entries(declaredMethods).map(([template, methods]) => ({
  pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
  methods,
}));

/**
 * The `Allow` of the route-table path that `pathname` (decoded, as the proxy sees it) matches,
 * or null when it matches none: for methods Next refuses before any route file runs (PROPFIND,
 * MKCOL …, once a bare 400), so that they too are 405 problem+json with `Allow` (docs/product.md §5).
 * @param pathname a request's path; trailing slashes are ignored.
 * @returns e.g. `GET, POST, HEAD, OPTIONS` for `/v1/nodes`, or null.
 */
export function allowAt(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '');
  const methods = templates.filter((t) => t.pattern.test(path)).flatMap((t) => t.methods);
  return methods.length > 0 ? allowHeader(methods) : null;
}
