import { describe, expect, test } from 'vitest';
import { createGpuReservationsClient, isDryRun } from './client';
import { isProblem, unwrap, type ReclaimProblem } from './problems';

// The SDK's own layer (docs/product.md §5, "SDK and CLI") against a fake fetch: what it sends,
// how often, and after how long. No server and no port.
type Seen = { method: string; path: string; key: string | null; body: string };
type Answer = Response | Error;

function fakeApi(answers: Answer[]) {
  const seen: Seen[] = [];
  const sleeps: number[] = [];
  const client = createGpuReservationsClient({
    baseUrl: 'http://api.test',
    apiKey: 'k',
    fetch: async (r) => {
      const url = new URL(r.url);
      seen.push({ method: r.method, path: url.pathname + url.search, key: r.headers.get('idempotency-key'), body: await r.text() });
      const next = answers.shift() ?? new Response('{}', { status: 500 });
      if (next instanceof Error) throw next;
      return next;
    },
    retry: { sleep: async (ms) => void sleeps.push(ms), baseDelayMs: 100 },
  });
  return { client, seen, sleeps };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers } });
const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  json(status, { type: `/problems/${code}`, title: code, status, detail: code, code, ...extra });
const reclaimPath = '/v1/nodes/{nodeId}/reservations/{id}/reclaim' as const;
const params = { path: { nodeId: 'n1', id: 'r1' } };
const applied = { id: 'r1', nodeId: 'n1', allowedOrgIds: [], reservedUnitIds: ['gpu-0'], startsAt: 't', status: 'active', terminated: [], skipped: [] };

describe('idempotency keys', () => {
  test('a mutation that takes one gets one, kept across retries of a network error and of 409 idempotency_in_progress', async () => {
    const { client, seen } = fakeApi([new TypeError('fetch failed'), problem(409, 'idempotency_in_progress'), json(200, applied)]);
    const { data } = await client.api.POST(reclaimPath, { params, body: { unitIds: ['gpu-0'] } });
    expect(data?.id).toBe('r1');
    expect(seen).toHaveLength(3);
    expect(seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(new Set(seen.map((s) => s.body))).toEqual(new Set(['{"unitIds":["gpu-0"]}']));
  });

  test('a key the caller gives is kept', async () => {
    const { client, seen } = fakeApi([json(200, applied)]);
    await client.api.POST(reclaimPath, { params: { ...params, header: { 'Idempotency-Key': 'mine' } }, body: { unitIds: ['gpu-0'] } });
    expect(seen[0]?.key).toBe('mine');
  });

  test('POST /v1/api-keys, which refuses the header, gets none and is not retried after a network error', async () => {
    const { client, seen } = fakeApi([new TypeError('fetch failed')]);
    await expect(client.api.POST('/v1/api-keys', { body: { name: 'ci', scopes: ['read'] } })).rejects.toThrow('fetch failed');
    expect(seen).toEqual([expect.objectContaining({ path: '/v1/api-keys', key: null })]);
  });

  test('GETs carry no key and are retried after a network error', async () => {
    const { client, seen } = fakeApi([new TypeError('fetch failed'), json(200, { id: 'n1' })]);
    await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId: 'n1' } } });
    expect(seen.map((s) => s.key)).toEqual([null, null]);
  });
});

describe('retries', () => {
  test('429 and 503 wait Retry-After seconds, then the answer is the last one', async () => {
    const { client, sleeps } = fakeApi([
      new Response('{}', { status: 429, headers: { 'retry-after': '2' } }),
      new Response('{}', { status: 503, headers: { 'retry-after': '1' } }),
      json(200, { id: 'n1' }),
    ]);
    const { data } = await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId: 'n1' } } });
    expect(data).toEqual({ id: 'n1' });
    expect(sleeps).toEqual([2000, 1000]);
  });

  test('without Retry-After, a jittered backoff that doubles per attempt', async () => {
    const { client, sleeps } = fakeApi([problem(503, 'service_unavailable'), problem(503, 'service_unavailable'), json(200, { id: 'n1' })]);
    await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId: 'n1' } } });
    expect(sleeps).toHaveLength(2);
    for (const [n, ms] of sleeps.entries()) expect(ms).toBeLessThanOrEqual(100 * 2 ** n);
  });

  test('bounded: after 3 retries the problem is answered', async () => {
    const { client, seen } = fakeApi(Array.from({ length: 6 }, () => new Response('{}', { status: 503, headers: { 'retry-after': '0' } })));
    const { error, response } = await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId: 'n1' } } });
    expect(response.status).toBe(503);
    expect(error).toBeDefined();
    expect(seen).toHaveLength(4);
  });

  test('a Retry-After longer than the SDK waits is answered at once', async () => {
    const { client, seen } = fakeApi([new Response('{}', { status: 429, headers: { 'retry-after': '3600' } })]);
    const { response } = await client.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId: 'n1' } } });
    expect(response.status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  test('other problems are not retried, and come typed per operation', async () => {
    const { client, seen } = fakeApi([problem(409, 'eviction_set_changed', { terminate: ['vm-b'] })]);
    const { error } = await client.api.POST(reclaimPath, { params, body: { unitIds: ['gpu-0'], expectedTerminate: ['vm-a'] } });
    const typed: ReclaimProblem | undefined = error;
    expect(isProblem(typed, 'eviction_set_changed') && typed.terminate).toEqual(['vm-b']);
    expect(seen).toHaveLength(1);
    expect(() => unwrap({ error, response: new Response(null, { status: 409 }) })).toThrow('409 eviction_set_changed');
  });
});

describe('lists and the feed', () => {
  test('paginate follows nextCursor to the end, keeping the filters', async () => {
    const { client, seen } = fakeApi([json(200, { items: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' }), json(200, { items: [{ id: 'c' }] })]);
    const ids: string[] = [];
    for await (const vm of client.paginate('/v1/vms', { query: { status: 'running', limit: 2 } })) ids.push(vm.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(seen.map((s) => s.path)).toEqual(['/v1/vms?status=running&limit=2', '/v1/vms?status=running&limit=2&cursor=c1']);
  });

  test('events reads on from each nextCursor with the types asked for, and stops when caught up if asked', async () => {
    const e = (id: string) => ({ id, type: 'vm.reclaimed', at: 't', data: {} });
    const { client, seen } = fakeApi([json(200, { items: [e('1'), e('2')], nextCursor: 'x1' }), json(200, { items: [], nextCursor: 'x1' })]);
    const cursors: string[] = [];
    const got: string[] = [];
    for await (const ev of client.events({ types: ['vm.reclaimed', 'vm.placed'], stopWhenCaughtUp: true, onCursor: (c) => cursors.push(c) })) got.push(ev.id);
    expect(got).toEqual(['1', '2']);
    expect(cursors).toEqual(['x1', 'x1']);
    expect(seen.map((s) => decodeURIComponent(s.path))).toEqual([
      '/v1/events?types=vm.reclaimed,vm.placed&wait=0',
      '/v1/events?after=x1&types=vm.reclaimed,vm.placed&wait=0',
    ]);
  });

  test('isDryRun tells the two reclaim answers apart', () => {
    expect(isDryRun({ ...applied, status: 'active' })).toBe(false);
    expect(
      isDryRun({ id: 'r1', nodeId: 'n1', allowedOrgIds: [], reservedUnitIds: [], startsAt: 't', status: 'active', wouldTerminate: [], wouldSkip: [] }),
    ).toBe(true);
  });
});
