import { describe, expect, it } from 'vitest';
import { restRoutes } from './routes';

describe('the route table', () => {
  it('tags every route with the console page or action that offers it, or api-only with a reason', () => {
    const untagged = restRoutes.filter((r) => {
      const tag = r.console.trim();
      if (tag.startsWith('api-only')) return !/^api-only: \S.{8,}/.test(tag);
      return tag.length < 4;
    });
    expect(untagged.map((r) => r.operationId)).toEqual([]);
  });

  it('declares each operation once, with a unique operationId', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = restRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
