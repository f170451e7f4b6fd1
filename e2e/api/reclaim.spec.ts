import { readFileSync } from 'node:fs';
import { expect, test } from '../support/api';
import postgres from 'postgres';
import { readState, type E2eState } from '../support/state';

// The REST contract through the real production server: Next's routing, body limits,
// unknown paths and methods stay problem+json (docs/product.md §5), and the README's reclaim flow.
let state: E2eState;
let sql: postgres.Sql;
test.beforeAll(() => {
  state = readState();
  sql = postgres(state.databaseUrl, { max: 1, onnotice: () => {} });
});
test.afterAll(async () => sql.end());

const auth = (org: string) => ({ authorization: `Bearer ${state.keys[org]}` });
/** The document's examples (server/openapi/examples.json), read as data: Playwright's loader imports no JSON module. */
const examples = JSON.parse(readFileSync(new URL('../../server/openapi/examples.json', import.meta.url), 'utf8')) as {
  reclaimUnits: Record<'dryRun' | 'reclaim', { response: Record<string, unknown> }>;
};
/** An answer with its times replaced, so that it compares with the document's example of the demo fleet (seeded relative to now). */
const timeless = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, ['startsAt', 'endsAt', 'createdAt', 'updatedAt'].includes(k) && typeof v === 'string' ? 'time' : v]),
  );
const reclaimPath = '/v1/nodes/acme-h100-02/reservations/res-nimbus-02/reclaim';

test('the README flow: preview, then reclaim with expectedTerminate; audit and notifications are written', async ({ request }) => {
  const preview = await request.post(reclaimPath, {
    headers: auth('org_helix'),
    data: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-6'], dryRun: true },
  });
  expect(preview.status()).toBe(200);
  const dry = await preview.json();
  // The document's examples of the reclaim are this very flow (server/openapi/examples.json).
  expect(timeless(dry)).toEqual(timeless(examples.reclaimUnits.dryRun.response));
  expect(dry.wouldTerminate).toEqual(['vm-orbit-eval-02', 'vm-orbit-train-02', 'vm-quark-sweep-02', 'vm-zephyr-render-02']);
  expect(dry.wouldSkip).toEqual(['vm-nimbus-infer-02']);

  const res = await request.post(reclaimPath, {
    headers: { ...auth('org_helix'), 'idempotency-key': 'readme-1' },
    data: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-6'], reason: 'Nimbus needs its GPUs back', expectedTerminate: dry.wouldTerminate },
  });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(timeless(body)).toEqual(timeless(examples.reclaimUnits.reclaim.response));
  expect(body.terminated).toEqual(dry.wouldTerminate);
  expect(body.skipped).toEqual(['vm-nimbus-infer-02']);
  expect(body.releasedUnitIds).toEqual(['gpu-5']);
  expect(body).not.toHaveProperty('wouldTerminate');

  const events = await sql`select action, actor_org_id, via, unit_ids, reason, details from audit_events where reservation_id = 'res-nimbus-02'`;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ action: 'reservation.reclaim', actor_org_id: 'org_helix', via: 'api', reason: 'Nimbus needs its GPUs back' });
  const notes = await sql`select org_id, details->>'vmId' as vm from notifications where details->>'nodeId' = 'acme-h100-02' order by vm`;
  expect(notes.map((n) => [n.org_id, n.vm])).toEqual([
    ['org_orbit', 'vm-orbit-eval-02'],
    ['org_orbit', 'vm-orbit-train-02'],
    ['org_quark', 'vm-quark-sweep-02'],
    ['org_zephyr', 'vm-zephyr-render-02'],
  ]);

  const node = await (await request.get('/v1/nodes/acme-h100-02', { headers: auth('org_helix') })).json();
  expect(node.units.map((u: { state: string }) => u.state)).toEqual([
    'reserved',
    'reserved',
    'reserved',
    'reserved',
    'reserved',
    'released',
    'reserved-occupied',
    'reserved',
  ]);

  // The same key replays the stored answer byte for byte.
  const replay = await request.post(reclaimPath, {
    headers: { ...auth('org_helix'), 'idempotency-key': 'readme-1' },
    data: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-6'], reason: 'Nimbus needs its GPUs back', expectedTerminate: dry.wouldTerminate },
  });
  expect(await replay.text()).toBe(await res.text());
});

test('unknown paths under /v1 are 404 problem+json, for every method', async ({ request }) => {
  for (const [method, url] of [
    ['GET', '/v1/nope'],
    ['POST', '/v1/nodes/acme-h100-01/reservations/res-nimbus-01/reclaim/more'],
    ['DELETE', '/v1'],
    ['GET', '/v1/nodes/acme-h100-01/units'],
  ] as const) {
    const res = await request.fetch(url, { method, headers: auth('org_acme') });
    expect(res.status(), `${method} ${url}`).toBe(404);
    expect(res.headers()['content-type']).toBe('application/problem+json');
    expect((await res.json()).code).toBe('not_found');
  }
});

test('wrong methods are 405 problem+json with Allow', async ({ request }) => {
  const res = await request.fetch(reclaimPath, { method: 'PUT', headers: auth('org_acme') });
  expect(res.status()).toBe(405);
  expect(res.headers()['allow']).toBe('POST, OPTIONS');
  expect((await res.json()).code).toBe('method_not_allowed');
  const del = await request.delete('/v1/nodes/acme-h100-01', { headers: auth('org_acme') });
  expect([del.status(), del.headers()['allow']]).toEqual([405, 'GET, HEAD, OPTIONS']);
});

test('ids that cannot be ids are 404, path tricks included', async ({ request }) => {
  for (const url of ['/v1/nodes/%2e%2e', '/v1/nodes/a%20b', '/v1/nodes/-x', `/v1/nodes/${'a'.repeat(129)}`, '/v1/nodes/%00']) {
    const res = await request.get(url, { headers: auth('org_acme') });
    expect(res.status(), url).toBe(404);
    expect(res.headers()['content-type']).toBe('application/problem+json');
  }
});

test('bodies: bad JSON 400, wrong media type 415, over 64 KiB 413, all problem+json', async ({ request }) => {
  const h = { ...auth('org_acme') };
  const bad = await request.post(reclaimPath, { headers: { ...h, 'content-type': 'application/json' }, data: '{"unitIds":' });
  expect([bad.status(), (await bad.json()).code]).toEqual([400, 'invalid_request']);
  const text = await request.post(reclaimPath, { headers: { ...h, 'content-type': 'text/plain' }, data: '{"unitIds":["gpu-0"]}' });
  expect([text.status(), (await text.json()).code]).toEqual([415, 'unsupported_media_type']);
  const big = await request.post(reclaimPath, {
    headers: { ...h, 'content-type': 'application/json' },
    data: JSON.stringify({ unitIds: ['gpu-0'], reason: 'x'.repeat(200_000) }),
  });
  expect([big.status(), (await big.json()).code]).toEqual([413, 'payload_too_large']);
});

test('no credentials is 401; the audience is 403; another org is 404', async ({ request }) => {
  const data = { unitIds: ['gpu-5'], dryRun: true };
  expect((await request.post(reclaimPath, { data })).status()).toBe(401);
  expect((await request.post(reclaimPath, { data, headers: auth('org_nimbus') })).status()).toBe(403);
  expect((await request.post(reclaimPath, { data, headers: auth('org_orbit') })).status()).toBe(404);
  expect((await request.post(reclaimPath, { data, headers: auth('org_platform') })).status()).toBe(200);
  expect((await request.get('/v1/nodes', { headers: auth('org_orbit') })).status()).toBe(200);
});
