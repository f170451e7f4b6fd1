import { describe, expect, it } from 'vitest';
import { restRoutes } from './routes';

describe('the route table', () => {
  it('has examples that are what the operation takes and answers', () => {
    const withExamples = restRoutes.filter((r) => r.example);
    expect(withExamples.length).toBeGreaterThan(0);
    for (const r of withExamples) {
      expect(r.response.safeParse(r.example!.response).error?.issues, `${r.operationId}: example answer`).toBeUndefined();
      const request = r.example!.body ?? r.example!.query ?? {};
      expect((r.body ?? r.query)?.safeParse(request).error?.issues, `${r.operationId}: example request`).toBeUndefined();
    }
  });

  it('declares each operation once, with a unique operationId', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = restRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
