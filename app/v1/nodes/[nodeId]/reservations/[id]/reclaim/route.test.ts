import { auditEvents, idempotencyRecords, reservations, vms } from '@/db/schema';
import { useFreshScene } from '@/server/testing/fresh-scene';
import { callRoute, issueKeys } from '@/server/testing/rest';
import { ORG } from '@/server/testing/scene';
import { createCaller } from '@/server/trpc/root';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET, POST } from './route';

const scene = useFreshScene(() => new Date());
let keys: Record<string, string>;
const path = '/v1/nodes/n1/reservations/r1/reclaim';
const params = { nodeId: 'n1', id: 'r1' };
const post = (body: unknown, over: Partial<Parameters<typeof callRoute>[1]> = {}) =>
  callRoute(POST, { method: 'POST', path, params, key: keys[ORG.owner], body, ...over });

beforeEach(async () => {
  keys = await issueKeys(scene().db, Object.values(ORG));
});
beforeAll(() => {
  process.env.PLATFORM_ORG_ID = ORG.platform;
});

function expectProblem(res: Awaited<ReturnType<typeof callRoute>>, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.json).toMatchObject({ status, code, title: expect.any(String), type: `/problems/${code}`, detail: expect.any(String) });
}

const reservationFields = [
  'allowedOrgIds',
  'contractRef',
  'createdAt',
  'endsAt',
  'id',
  'managingOrgIds',
  'nodeId',
  'releasedUnitIds',
  'reservedUnitIds',
  'startsAt',
  'status',
  'topologyGen',
  'updatedAt',
];

describe('POST …/reclaim: the published contract', () => {
  it('dry run answers exactly the contract fields, with wouldTerminate/wouldSkip only', async () => {
    const res = await post({ unitIds: ['gpu-0', 'gpu-2', 'gpu-4'], dryRun: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(res.json).sort()).toEqual([...reservationFields, 'wouldSkip', 'wouldTerminate'].sort());
    expect(res.json).toMatchObject({
      wouldTerminate: ['vm-spot-a', 'vm-spot-b'],
      wouldSkip: ['vm-res'],
      reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'],
    });
    expect(res.json.startsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('a real run answers terminated/skipped only, and omits unset optional strings', async () => {
    await scene().db.update(reservations).set({ contractRef: null, endsAt: null }).where(eq(reservations.id, 'r1'));
    const res = await post({ unitIds: ['gpu-0'] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual([...reservationFields.filter((f) => f !== 'contractRef' && f !== 'endsAt'), 'skipped', 'terminated'].sort());
    expect(res.json).toMatchObject({ terminated: ['vm-spot-a'], skipped: [] });
    expect(JSON.stringify(res.json)).not.toContain('null');
  });

  it('the dry run over REST equals the dry run over tRPC for the same principal', async () => {
    const body = { unitIds: ['gpu-4', 'gpu-2', 'gpu-0'], dryRun: true };
    const rest = await post(body);
    const [row] = await scene().db.execute<{ now: string }>(sql`select now() as now`);
    const caller = createCaller({
      db: scene().db,
      principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u' }, via: 'console' },
      now: new Date(row!.now),
    });
    const viaTrpc = await caller.reservations.reclaim({ nodeId: 'n1', reservationId: 'r1', ...body });
    expect(viaTrpc).toEqual(rest.json);
  });

  it('tRPC maps domain errors through the same table, with the problem attached', async () => {
    const caller = createCaller({ db: scene().db, principal: { orgId: ORG.audience, actor: { kind: 'user', userId: 'u' }, via: 'console' } });
    await expect(caller.reservations.reclaim({ nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const owner = createCaller({ db: scene().db, principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u' }, via: 'console' } });
    await expect(owner.reservations.reclaim({ nodeId: 'n1', reservationId: 'r1', unitIds: ['x'] })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
    const anonymous = createCaller({ db: scene().db, principal: null });
    await expect(anonymous.reservations.reclaim({ nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('POST …/reclaim: errors as problem+json (docs/product.md §5)', () => {
  it('401 without, or with a wrong or revoked key', async () => {
    expectProblem(await post({ unitIds: ['gpu-0'] }, { key: undefined }), 401, 'unauthenticated');
    expectProblem(await post({ unitIds: ['gpu-0'] }, { key: 'gpuk_nope' }), 401, 'unauthenticated');
    const res = await post({ unitIds: ['gpu-0'] }, { headers: { authorization: 'Basic abc' }, key: undefined });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('401 comes before 400', async () => {
    expectProblem(await post({ bogus: 1 }, { key: undefined }), 401, 'unauthenticated');
  });

  it.each([
    ['missing unitIds', {}, 'body.unitIds'],
    ['empty unitIds', { unitIds: [] }, 'body.unitIds'],
    ['duplicate unitIds', { unitIds: ['gpu-0', 'gpu-0'] }, 'body.unitIds.1'],
    ['bad id', { unitIds: ['../etc'] }, 'body.unitIds.0'],
    ['wrong type', { unitIds: ['gpu-0'], dryRun: 'yes' }, 'body.dryRun'],
    ['unknown field', { unitIds: ['gpu-0'], force: true }, 'body.force'],
    ['reason too long', { unitIds: ['gpu-0'], reason: 'x'.repeat(1001) }, 'body.reason'],
    ['NUL in reason', { unitIds: ['gpu-0'], reason: 'a\u0000b' }, 'body.reason'],
    ['lone surrogate in reason', { unitIds: ['gpu-0'], reason: 'a \ud800 b' }, 'body.reason'],
    ['1001 emoji in reason', { unitIds: ['gpu-0'], reason: '🚀'.repeat(1001) }, 'body.reason'],
    ['too many unitIds', { unitIds: Array.from({ length: 1025 }, (_, i) => `u${i}`) }, 'body.unitIds'],
    ['array body', [], 'body'],
    ['null body', null, 'body'],
  ])('400 for %s, naming the field', async (_name, body, field) => {
    const res = await post(body);
    expectProblem(res, 400, 'invalid_request');
    expect((res.json.errors as { path: string }[]).map((e) => e.path)).toContain(field);
  });

  it('accepts 1000 emoji as a 1000-character reason', async () => {
    expect((await post({ unitIds: ['gpu-0'], dryRun: true, reason: '🚀'.repeat(1000) })).status).toBe(200);
  });

  it('400 for a key given twice in one object, which JSON.parse would silently resolve', async () => {
    const res = await post(undefined, { rawBody: '{"unitIds":["gpu-0"],"dryRun":true,"dryRun":false}', headers: { 'content-type': 'application/json' } });
    expectProblem(res, 400, 'invalid_request');
    expect(res.json.errors).toEqual([{ path: 'body.dryRun', message: 'is given more than once' }]);
    expect(await scene().db.select().from(auditEvents)).toHaveLength(0);
  });

  it('415 for compressed bodies and charsets other than UTF-8', async () => {
    const rawBody = JSON.stringify({ unitIds: ['gpu-0'] });
    expectProblem(
      await post(undefined, { rawBody, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(await post(undefined, { rawBody, headers: { 'content-type': 'application/json; charset=latin1' } }), 415, 'unsupported_media_type');
    expect((await post(undefined, { rawBody, headers: { 'content-type': 'application/json; charset=UTF-8' } })).status).toBe(200);
  });

  it('accepts the Bearer scheme in any case', async () => {
    expect((await post({ unitIds: ['gpu-0'], dryRun: true }, { key: undefined, headers: { authorization: `bearer ${keys[ORG.owner]}` } })).status).toBe(200);
  });

  it('400 for unknown query parameters and malformed JSON; 415 for other media types; 413 over 64 KiB', async () => {
    expectProblem(await post({ unitIds: ['gpu-0'] }, { path: `${path}?force=1` }), 400, 'invalid_request');
    expectProblem(await post(undefined, { rawBody: '{"unitIds": [', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    expectProblem(
      await post(undefined, { rawBody: 'unitIds=gpu-0', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(await post(undefined, { rawBody: '{}' }), 415, 'unsupported_media_type');
    const huge = JSON.stringify({ unitIds: ['gpu-0'], reason: 'x'.repeat(70_000) });
    expectProblem(await post(undefined, { rawBody: huge, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
  });

  it('404 for invalid ids in the path, unknown resources and invisible reservations', async () => {
    expectProblem(await post({ unitIds: ['gpu-0'] }, { params: { nodeId: 'n1', id: 'r 1' } }), 404, 'not_found');
    expectProblem(await post({ unitIds: ['gpu-0'] }, { params: { nodeId: 'zz', id: 'r1' } }), 404, 'not_found');
    expectProblem(await post({ unitIds: ['gpu-0'] }, { key: keys[ORG.other] }), 404, 'not_found');
  });

  it('403 for the audience', async () => {
    expectProblem(await post({ unitIds: ['gpu-0'], dryRun: true }, { key: keys[ORG.audience] }), 403, 'forbidden');
  });

  it('409 reservation_not_reclaimable carries the reservation status', async () => {
    await scene()
      .db.update(reservations)
      .set({ cancelledAt: new Date('2026-01-01T00:00:00Z') })
      .where(eq(reservations.id, 'r1'));
    const res = await post({ unitIds: ['gpu-0'] });
    expectProblem(res, 409, 'reservation_not_reclaimable');
    expect(res.json.reservationStatus).toBe('cancelled');
  });

  it('409 eviction_set_changed carries the current set', async () => {
    const res = await post({ unitIds: ['gpu-0', 'gpu-2'], expectedTerminate: ['vm-spot-a'] });
    expectProblem(res, 409, 'eviction_set_changed');
    expect(res.json.terminate).toEqual(['vm-spot-a', 'vm-spot-b']);
  });

  it('422 lists the strays', async () => {
    const res = await post({ unitIds: ['gpu-0', 'gpu-7'] });
    expectProblem(res, 422, 'unit_not_in_reservation');
    expect(res.json.unitIds).toEqual(['gpu-7']);
  });

  it('405 with Allow for other methods', async () => {
    const res = await callRoute(GET, { path, params, key: keys[ORG.owner] });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('rate limit (docs/product.md §8 R5)', () => {
  it('answers 429 with Retry-After once a key has used its minute, per key', async () => {
    process.env.RATE_LIMIT_PER_MINUTE = '3';
    try {
      for (let i = 0; i < 3; i++) expect((await post({ unitIds: ['gpu-5'], dryRun: true })).status).toBe(200);
      const limited = await post({ unitIds: ['gpu-5'], dryRun: true });
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await post({ unitIds: ['gpu-5'], dryRun: true }, { key: keys[ORG.managing] })).status).toBe(200);
      process.env.RATE_LIMIT_PER_MINUTE = '0';
      expect((await post({ unitIds: ['gpu-5'], dryRun: true })).status).toBe(200);
    } finally {
      delete process.env.RATE_LIMIT_PER_MINUTE;
    }
  });
});

describe('Idempotency-Key (docs/product.md §5)', () => {
  it('replays the stored response byte for byte and does the work once', async () => {
    const headers = { 'idempotency-key': 'k-1' };
    const first = await post({ unitIds: ['gpu-0'], reason: 'r' }, { headers });
    const second = await post({ unitIds: ['gpu-0'], reason: 'r' }, { headers });
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await scene().db.select().from(auditEvents)).toHaveLength(1);
  });

  it('stores and replays errors too (below 500)', async () => {
    const headers = { 'idempotency-key': 'k-err' };
    const first = await post({ unitIds: ['gpu-7'] }, { headers });
    expect(first.status).toBe(422);
    const second = await post({ unitIds: ['gpu-7'] }, { headers });
    expect([second.status, second.text]).toEqual([422, first.text]);
  });

  it('422 for the same key with a different body; keys are scoped per org', async () => {
    const headers = { 'idempotency-key': 'k-2' };
    await post({ unitIds: ['gpu-0'] }, { headers });
    expectProblem(await post({ unitIds: ['gpu-2'] }, { headers }), 422, 'idempotency_key_reused');
    const other = await post({ unitIds: ['gpu-2'] }, { headers, key: keys[ORG.managing] });
    expect(other.status).toBe(200);
    expect(other.json.terminated).toEqual(['vm-spot-b']);
  });

  it('409 idempotency_in_progress for a duplicate while the first is in flight', async () => {
    const headers = { 'idempotency-key': 'k-3' };
    // Hold node n1's lock so the first request stays in flight.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = scene().db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from nodes where id = 'n1' for update`);
      locked();
      await held;
    });
    await isLocked;
    const first = post({ unitIds: ['gpu-0'] }, { headers });
    await new Promise((r) => setTimeout(r, 300));
    const dup = await post({ unitIds: ['gpu-0'] }, { headers });
    release();
    await holder;
    expectProblem(dup, 409, 'idempotency_in_progress');
    expect((await first).status).toBe(200);
    expect(await scene().db.select().from(vms).where(eq(vms.status, 'terminated'))).toHaveLength(1);
  });

  it('scopes keys to the resource, however its path is spelled', async () => {
    const headers = { 'idempotency-key': 'k-path' };
    const first = await post({ unitIds: ['gpu-0'] }, { headers });
    const encoded = await post({ unitIds: ['gpu-0'] }, { headers, path: '/v1/nodes/n%31/reservations/r1/reclaim/' });
    expect([encoded.status, encoded.text]).toEqual([200, first.text]);
    expect(encoded.headers.get('idempotent-replayed')).toBe('true');
    const reordered = await post(undefined, { rawBody: '{ "unitIds" : [ "gpu-0" ] }', headers: { ...headers, 'content-type': 'application/json' } });
    expect(reordered.text).toBe(first.text);
    expectProblem(await post({ unitIds: ['gpu-2'] }, { headers, path: '/v1/nodes/n1/reservations/r1/reclaim/' }), 422, 'idempotency_key_reused');
  });

  it('400 for a key longer than 255 characters', async () => {
    expectProblem(await post({ unitIds: ['gpu-0'] }, { headers: { 'idempotency-key': 'k'.repeat(256) } }), 400, 'invalid_request');
    expect(await scene().db.select().from(idempotencyRecords)).toHaveLength(0);
  });
});
