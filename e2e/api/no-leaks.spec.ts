import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, test } from '../support/api';
import postgres from 'postgres';
import { readState } from '../support/state';
import { signInOverHttp } from '../console/support';

// docs/product.md §9.3: "no stack trace, SQL or internal id in any response or page",
// on the production server, over REST, tRPC and the pages — for answers to bad requests, for
// unknown things, and for a real internal error (a table the verbs need, renamed away for the
// duration of one test, so the driver fails with SQL in its message).

const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat [\w$.<>]+ \(|\bat (\/|file:)|\.tsx?:\d+|\.m?js:\d+:\d+|node_modules|webpack-internal/],
  ['SQL', /\b(select\b[^<>"]{0,80}\bfrom|insert into|delete from|update\b[^<>"]{0,40}\bset)\b/i],
  ['a driver error', /relation "|column "|syntax error|violates|duplicate key|PostgresError|Failed query|params:|ECONNREFUSED/i],
  ['a uuid', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i],
  ['a session id', /\bses_[0-9a-f]{32}\b/],
  ['a row seq', /"seq"/],
];

/** What of LEAKS the body shows, with the matching text. */
async function leaksOf(res: APIResponse): Promise<string[]> {
  const body = await res.text();
  return LEAKS.flatMap(([what, re]) => {
    const m = re.exec(body);
    return m ? [`${what}: ${JSON.stringify(body.slice(Math.max(0, m.index - 40), m.index + 60))}`] : [];
  });
}

const { keys, databaseUrl } = readState();
const bearer = { authorization: `Bearer ${keys.org_platform}` };
const trpcGet = (api: APIRequestContext, path: string, input: unknown) =>
  api.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);

/** Runs `fn` while `table` is renamed away, so that reading it is an internal error. */
async function withTableGone(table: 'notifications' | 'sessions', fn: () => Promise<void>) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`alter table ${table} rename to ${table}_gone`);
  try {
    await fn();
  } finally {
    await sql.unsafe(`alter table ${table}_gone rename to ${table}`);
    await sql.end();
  }
}

test('REST: bad requests, unknown things and an internal error answer problem+json with nothing internal', async ({ request }) => {
  const answers: [string, APIResponse, number][] = [
    ['unknown node', await request.get('/v1/nodes/no-such-node', { headers: bearer }), 404],
    ['unknown route', await request.get('/v1/no-such-route', { headers: bearer }), 404],
    ['wrong method', await request.delete('/v1/nodes', { headers: bearer }), 405],
    ['malformed JSON', await request.post('/v1/nodes', { headers: { ...bearer, 'content-type': 'application/json' }, data: '{"id": "n", ' }), 400],
    ['malformed cursor', await request.get('/v1/audit?cursor=not-a-cursor', { headers: bearer }), 400],
    ['no credentials', await request.get('/v1/nodes'), 401],
  ];
  await withTableGone('notifications', async () => {
    answers.push(['internal error', await request.get('/v1/notifications', { headers: bearer }), 500]);
  });
  for (const [what, res, status] of answers) {
    expect(res.status(), what).toBe(status);
    expect(res.headers()['content-type'], what).toBe('application/problem+json');
    expect(await leaksOf(res), what).toEqual([]);
  }
  expect(await answers.at(-1)![1].json()).toMatchObject({ status: 500, code: 'internal_error' });
});

test('tRPC: bad input, unknown things and an internal error say nothing internal', async ({ request }) => {
  expect((await signInOverHttp(request, 'olivia@platform.example')).status()).toBe(302);
  const db = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const id = (await db<{ id: string }[]>`select id from sessions order by created_at desc limit 1`)[0]!.id;
  await db.end();
  const answers: [string, APIResponse, number][] = [
    ['unknown node', await trpcGet(request, 'nodes.get', { nodeId: 'no-such-node' }), 404],
    ['unknown procedure', await trpcGet(request, 'nodes.nope', {}), 404],
    ['bad input', await trpcGet(request, 'nodes.get', { nodeId: 42 }), 400],
    ['malformed superjson', await request.get(`/api/trpc/nodes.get?input=${encodeURIComponent('{"json":')}`), 400],
  ];
  await withTableGone('notifications', async () => {
    answers.push(['internal error', await trpcGet(request, 'audit.notifications', {}), 500]);
  });
  for (const [what, res, status] of answers) {
    expect(res.status(), what).toBe(status);
    expect(await leaksOf(res), what).toEqual([]);
    expect(await res.text(), what).not.toContain(id);
  }
});

test('pages: not-found pages and the production error page show nothing internal', async ({ request }) => {
  expect((await signInOverHttp(request, 'tom@orbit.example')).status()).toBe(302);
  const answers: [string, APIResponse, number][] = [
    ['unknown page', await request.get('/no-such-page'), 404],
    ['unknown node page', await request.get('/nodes/no-such-node'), 404],
    // The VM page shows the problem's detail itself ("was not found, or you may not see it").
    ['unknown VM page', await request.get('/vms/no-such-vm'), 200],
  ];
  // The console layout reads the session on every page: without its table the page fails to render.
  await withTableGone('sessions', async () => {
    answers.push(['error page', await request.get('/notifications'), 500]);
  });
  // Next's production error shell: the failure is a digest to find in the server's log, no message
  // (the page's error boundary, app/error.tsx, renders in the browser from it).
  expect(await answers.at(-1)![1].text()).toMatch(/E\{\\"digest\\":\\"\d+\\"\}/);
  for (const [what, res, status] of answers) {
    expect(res.status(), what).toBe(status);
    expect(await leaksOf(res), what).toEqual([]);
  }
});
