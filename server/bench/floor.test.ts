import { insertNode, insertOrg } from '@/db/factories';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '../../app/bench/floor/route';
import { buildOpenApiDocument } from '../openapi/document';
import { restRoutes } from '../rest/routes';
import { callRoute, issueKeys } from '../testing/rest';

// The benchmark's floor route (server/bench/floor.ts): absent unless the benchmark enables it,
// authenticated as /v1 is, one locked write — and no part of the API.

let t: TestDatabase;
let key: string;

beforeAll(async () => {
  t = await createTestDatabase();
  await insertOrg(t.db, { id: 'org_owner' });
  await insertNode(t.db, { id: 'n1', ownerOrgId: 'org_owner', createdAt: new Date('2026-01-01T00:00:00.000Z') });
  key = (await issueKeys(t.db, ['org_owner'])).org_owner!;
});
afterAll(async () => t?.close());
afterEach(() => {
  delete process.env.BENCH_FLOOR;
});

const floor = (opts: { key?: string; nodeId?: string }) =>
  callRoute(POST, { method: 'POST', path: `/bench/floor?nodeId=${opts.nodeId ?? 'n1'}`, ...(opts.key ? { key: opts.key } : {}) });

describe('POST /bench/floor', () => {
  it('is an unknown path (404) unless BENCH_FLOOR=1, even with a valid key', async () => {
    const r = await floor({ key });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'not_found' });
  });

  it('authenticates as /v1 does: 401 without a valid key', async () => {
    process.env.BENCH_FLOOR = '1';
    expect((await floor({})).status).toBe(401);
    expect((await floor({ key: 'gpuk_not-a-key' })).status).toBe(401);
  });

  it('locks and writes the node back unchanged, in one transaction; 404 for an unknown node', async () => {
    process.env.BENCH_FLOOR = '1';
    const before = await t.db.execute<{ xmin: string; updated_at: string }>(sql`select xmin::text, updated_at::text from nodes where id = 'n1'`);
    const r = await floor({ key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ nodeId: 'n1' });
    const after = await t.db.execute<{ xmin: string; updated_at: string }>(sql`select xmin::text, updated_at::text from nodes where id = 'n1'`);
    // A new row version (a real write) with the same values.
    expect(after[0]!.xmin).not.toBe(before[0]!.xmin);
    expect(after[0]!.updated_at).toBe(before[0]!.updated_at);
    expect((await floor({ key, nodeId: 'nope' })).status).toBe(404);
  });

  it('is no API route: absent from the route table and the OpenAPI document', () => {
    expect(restRoutes.some((r) => r.path.includes('bench'))).toBe(false);
    expect(JSON.stringify(Object.keys(buildOpenApiDocument(restRoutes).paths ?? {}))).not.toContain('bench');
  });
});
