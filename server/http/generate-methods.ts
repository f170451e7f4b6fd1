/**
 * Generates ./methods.generated.ts — each /v1 path template and the methods the REST route table
 * (server/rest/routes.ts) declares at it — so that the proxy can answer 405s (./allow-at.ts)
 * without importing the table, which loads every verb. ./methods.test.ts fails when the file
 * is not what this renders from the table as it is now.
 *
 * `npx tsx server/http/generate-methods.ts --write` rewrites it (after adding or removing a route).
 */
import type { RouteSpec } from '../rest/route-spec';

/** Path templates are written into the module as they are; anything else in one is refused. */
const SAFE_TEMPLATE = /^\/v1[\w/{}.-]*$/;

/**
 * The text of ./methods.generated.ts for a route table.
 * @param routes the route table, in its order (which `Allow` keeps).
 * @returns the module's source, formatted as committed.
 * @throws Error for a path template with a character the module could not hold as written.
 */
export function renderMethodsModule(routes: readonly Pick<RouteSpec, 'method' | 'path'>[]): string {
  const byPath = new Map<string, string[]>();
  for (const r of routes) {
    if (!SAFE_TEMPLATE.test(r.path)) throw new Error(`Unexpected character in path template ${r.path}`);
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
  }
  const lines = [...byPath].map(([path, methods]) => `  '${path}': [${methods.map((m) => `'${m}'`).join(', ')}],`);
  return [
    '// Generated from the REST route table (server/rest/routes.ts) by',
    '// `npx tsx server/http/generate-methods.ts --write`; do not edit. server/http/methods.test.ts',
    '// fails when it is stale.',
    "import type { DeclaredMethod } from './methods';",
    '',
    '/**',
    ' * Each /v1 path template and the methods the route table declares at it, in the table’s order:',
    ' * what the proxy answers 405s from (server/http/allow-at.ts) without loading a verb.',
    ' */',
    'export const declaredMethods: Readonly<Record<`/v1${string}`, readonly DeclaredMethod[]>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) {
  const { writeFileSync } = await import('node:fs');
  const { restRoutes } = await import('../rest/routes');
  writeFileSync(new URL('./methods.generated.ts', import.meta.url), renderMethodsModule(restRoutes));
}
