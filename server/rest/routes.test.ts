import { describe, expect, it } from 'vitest';
import type { RestExample } from '../operation';
import examples from '../openapi/examples.json';
import { restRoutes } from './routes';

describe('the route table', () => {
  it('has an example of every operation, each what the operation takes and answers', () => {
    const byOperation = examples as Record<string, Record<string, RestExample<unknown>>>;
    expect(Object.keys(byOperation).sort()).toEqual(restRoutes.map((r) => r.operationId).sort());
    for (const r of restRoutes) {
      for (const [name, e] of Object.entries(byOperation[r.operationId]!)) {
        const where = `${r.operationId} (${name})`;
        expect(r.response.safeParse(e.response).error?.issues, `${where}: the answer`).toBeUndefined();
        // The request as the route reads it: path parameters in their fields, a query's values as strings.
        const path = Object.fromEntries(Object.entries(e.params ?? {}).map(([p, v]) => [r.paramFields[p]!, v]));
        const query = Object.fromEntries(Object.entries(e.query ?? {}).map(([k, v]) => [k, String(v)]));
        expect(Object.keys(e.params ?? {}).sort(), `${where}: the path parameters`).toEqual(Object.keys(r.paramFields).sort());
        expect(r.input.safeParse({ ...path, ...query, ...(e.body ?? {}) }).error?.issues, `${where}: the request`).toBeUndefined();
      }
    }
  });

  it('declares each operation once, with a unique operationId', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = restRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
