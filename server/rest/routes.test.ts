import { describe, expect, it } from 'vitest';
import { restRoutes } from './routes';

describe('the route table', () => {
  it('declares each operation once, with a unique operationId', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = restRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
