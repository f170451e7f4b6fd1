/**
 * The proxy's 405s (proxy.ts) come from a generated method map (./methods.generated.ts), not the
 * route table: the map must be what the table renders now, and answer what the table would.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../rest/routes';
import { allowAt } from './allow-at';
import { renderMethodsModule } from './generate-methods';
import { allowHeader } from './methods';

describe('the generated method map (server/http/methods.generated.ts)', () => {
  it('is what the route table renders now', () => {
    const committed = readFileSync(new URL('./methods.generated.ts', import.meta.url), 'utf8');
    expect(committed, 'stale: run `npx tsx server/http/generate-methods.ts --write`').toBe(renderMethodsModule(restRoutes));
  });

  it('would be stale after any route is added or removed', () => {
    const committed = readFileSync(new URL('./methods.generated.ts', import.meta.url), 'utf8');
    for (let i = 0; i < restRoutes.length; i++) expect(renderMethodsModule(restRoutes.filter((_, j) => j !== i))).not.toBe(committed);
    expect(renderMethodsModule([...restRoutes, { method: 'DELETE', path: '/v1/nodes/{nodeId}' }])).not.toBe(committed);
  });

  it('refuses a path template it could not write as it is', () => {
    expect(() => renderMethodsModule([{ method: 'GET', path: "/v1/x'y" }])).toThrow(/Unexpected character/);
  });
});

describe('allowAt (the proxy’s 405 for methods no route file can export)', () => {
  it('answers the Allow of the table path a concrete path matches, and null for none', () => {
    expect(allowAt('/v1/nodes')).toBe('GET, POST, HEAD, OPTIONS');
    expect(allowAt('/v1/nodes/n1/reservations/r1/reclaim/')).toBe('POST, OPTIONS');
    expect(allowAt('/v1/openapi.json')).toBe('GET, HEAD, OPTIONS');
    expect(allowAt('/v1/openapi-json')).toBeNull();
    expect(allowAt('/v1/nodes/n1/x')).toBeNull();
  });

  it('answers, at a concrete path of every route, the Allow the route table gives that path', () => {
    for (const r of restRoutes) {
      const concrete = r.path.replace(/\{\w+\}/g, 'x1');
      const declared = restRoutes.filter((s) => s.path === r.path).map((s) => s.method);
      expect(allowAt(concrete), concrete).toBe(allowHeader(declared));
    }
  });
});
