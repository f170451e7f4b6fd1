/**
 * docs/product.md §8 R3 over tRPC: every procedure of the router takes the hostile-input
 * corpus through the console's HTTP endpoint (server/trpc/http-handler.ts) — every input
 * mutation (server/testing/hostile.ts), malformed JSON and superjson, wrong methods and media
 * types, the 64 KiB cap, oversized and malformed batches, wrong procedure names and cross-site
 * calls — and answers each with a tRPC error carrying the problem REST would answer: never a
 * 5xx, never a hang, and the database is equal before and after.
 *
 * Each procedure starts from a valid call that writes nothing (`bases`): a read, or a write
 * addressed to an unknown resource or by a principal it refuses, so a variant the schema
 * accepts is still refused after validation.
 *
 * The session: the endpoint reads the Auth.js cookie in Next's request scope, which does not
 * exist here, so `getConsoleSession` answers the session that cookie would name (as in
 * http-handler.test.ts). The cross-site refusal comes before the lookup; with a real cookie it
 * is proven on the production server (e2e/api/hostile-paths.spec.ts).
 */
import superjson from 'superjson';
import type { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import type { ConsoleSession } from '../auth/sessions';
import { MAX_BODY_BYTES } from '../http/body';
import { expectationFor, hostilePathValues, judge, mutationsOf, snapshotTables, withinTime } from '../testing/hostile';
import { useHostileScene } from '../testing/hostile-scene';
import { ORG } from '../testing/scene';
import { MAX_BATCH_SIZE, handleTrpcRequest } from './http-handler';
import type { MembershipRole } from '@/db/schema';
import { operationById, type OperationId } from '../operations';
import { roleGrants } from '../policy';
import { appRouter } from './root';
import { ACTING_ORG_HEADER } from './shared';

const session: { current: ConsoleSession | null } = { current: null };
vi.mock('../auth/console-principal', () => ({ getConsoleSession: async () => session.current }));

type Who = keyof typeof ORG;
/** A valid call of a procedure that writes nothing, and its HTTP status. `skipAccepted`: no such call exists (see apiKeys.create). */
type Base = { as: Who; input: unknown; status: number; skipAccepted?: true };

// Timestamps travel as ISO strings on both transports (server/timestamp.ts).
const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
/** A feed cursor at the start, as the API hands one out (server/events/feed.ts). */
const feedStart = Buffer.from(JSON.stringify({ x: 0, s: 0, t: Date.now() }), 'utf8').toString('base64url');
const units = [{ id: 'gpu-0', model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: 'nvl-0' }];
const r1 = { nodeId: 'n1', reservationId: 'r1' };
const missing = { nodeId: 'n1', reservationId: 'r-missing' };

/** One per procedure (a test below fails when a procedure has none). */
// One procedure per line, read as a table; prettier would break the long rows.
// prettier-ignore
const bases: Record<string, Base> = {
  'nodes.get': { as: 'owner', input: { nodeId: 'n1' }, status: 200 },
  'nodes.unit': { as: 'owner', input: { nodeId: 'n1', unitId: 'gpu-0' }, status: 200 },
  'nodes.list': { as: 'owner', input: { limit: 10, ownerOrgId: ORG.owner, owner: 'org', q: 'n', sort: 'owner', order: 'desc', relation: 'uses', hasReleased: 'false', needsReview: 'true' }, status: 200 },
  'nodes.owners': { as: 'tenantA', input: { q: 'org' }, status: 200 },
  'nodes.register': { as: 'owner', input: { id: 'n-new', name: 'New', ownerOrgId: ORG.owner, units }, status: 403 },
  'nodes.changeTopology': { as: 'platform', input: { nodeId: 'n-missing', units, expectedTopologyGen: 1 }, status: 404 },
  'nodes.actions': { as: 'owner', input: { nodeId: 'n1' }, status: 200 },
  'nodes.fleetActions': { as: 'owner', input: undefined, status: 200 },
  'nodes.topologyHistory': { as: 'owner', input: { nodeId: 'n1' }, status: 200 },
  'nodes.timeline': { as: 'owner', input: { nodeId: 'n1', from: '2026-12-01T00:00:00.000Z', to: '2026-12-08T00:00:00.000Z' }, status: 200 },
  'reservations.get': { as: 'owner', input: r1, status: 200 },
  'reservations.history': { as: 'owner', input: r1, status: 200 },
  'utilisation.reservation': { as: 'owner', input: { ...r1, window: '7d' }, status: 200 },
  'utilisation.rollup': { as: 'owner', input: { window: '30d', relation: 'owner' }, status: 200 },
  'reservations.offers': { as: 'owner', input: r1, status: 200 },
  'reservations.list': { as: 'owner', input: { role: 'any', limit: 10 }, status: 200 },
  'reservations.calendar': { as: 'owner', input: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-08T00:00:00.000Z', limit: 10 }, status: 200 },
  'reservations.listForNode': { as: 'owner', input: { nodeId: 'n1', limit: 10 }, status: 200 },
  'reservations.create': { as: 'owner', input: { nodeId: 'n-missing', id: 'r-new', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], managingOrgIds: [], contractRef: 'C', startsAt: future, reason: 'x' }, status: 404 },
  'reservations.update': { as: 'owner', input: { ...missing, allowedOrgIds: [ORG.audience], managingOrgIds: [], endsAt: future, contractRef: 'C', reservedUnitIds: ['gpu-0'], reason: 'x' }, status: 404 },
  'reservations.cancel': { as: 'owner', input: { ...missing, reason: 'x' }, status: 404 },
  'reservations.release': { as: 'owner', input: { ...missing, unitIds: ['gpu-5'], reason: 'x', dryRun: false }, status: 404 },
  'reservations.reclaim': { as: 'owner', input: { ...missing, unitIds: ['gpu-0'], dryRun: false, reason: 'x', expectedTerminate: ['vm-spot-a'] }, status: 404 },
  'reservations.reclaimPlan': { as: 'owner', input: { ...missing, count: 2, unitIds: ['gpu-0', 'gpu-3'], policy: 'fewest-evictions' }, status: 404 },
  'scheduledReclaims.list': { as: 'owner', input: { ...r1, limit: 10 }, status: 200 },
  'scheduledReclaims.create': { as: 'owner', input: { ...missing, unitIds: ['gpu-3'], at: future, reason: 'x' }, status: 404 },
  'scheduledReclaims.get': { as: 'owner', input: { ...missing, scheduleId: 'rcs-missing' }, status: 404 },
  'scheduledReclaims.reschedule': { as: 'owner', input: { ...missing, scheduleId: 'rcs-missing', at: future }, status: 404 },
  'scheduledReclaims.cancel': { as: 'owner', input: { ...missing, scheduleId: 'rcs-missing' }, status: 404 },
  'reservations.reaffirm': { as: 'platform', input: { ...missing, reason: 'x', expectedTopologyGen: 1 }, status: 404 },
  'vms.list': { as: 'owner', input: { nodeId: 'n1', status: 'running', tier: 'spot', limit: 10 }, status: 200 },
  'events.list': { as: 'owner', input: { after: feedStart, types: 'vm.reclaimed,reservation.reclaimed', wait: 0, limit: 10 }, status: 200 },
  'vms.listForNode': { as: 'owner', input: { nodeId: 'n1', status: 'running' }, status: 200 },
  'vms.get': { as: 'owner', input: { vmId: 'vm-res' }, status: 200 },
  'vms.detail': { as: 'owner', input: { vmId: 'vm-res' }, status: 200 },
  'vms.place': { as: 'audience', input: { nodeId: 'n-missing', unitIds: ['gpu-5'], tier: 'reserved', reservationId: 'r1' }, status: 404 },
  'vms.terminate': { as: 'owner', input: { vmId: 'vm-missing' }, status: 404 },
  'audit.list': { as: 'owner', input: { nodeId: 'n1', reservationId: 'r1', action: 'reservation.reclaim', since: '2026-01-01T00:00:00.000Z', until: future, limit: 10 }, status: 200 },
  'audit.notifications': { as: 'owner', input: { limit: 10 }, status: 200 },
  'audit.unreadNotificationCount': { as: 'owner', input: undefined, status: 200 },
  'audit.markNotificationRead': { as: 'owner', input: { notificationId: 'ntf-missing' }, status: 404 },
  'orgs.search': { as: 'owner', input: { q: 'org' }, status: 200 },
  'apiKeys.list': { as: 'owner', input: { limit: 10 }, status: 200 },
  // Any valid name creates a key (there is no Idempotency-Key to refuse here, as on REST):
  // only the variants its schema refuses are sent.
  'apiKeys.create': { as: 'owner', input: { name: 'hostile' }, status: 200, skipAccepted: true },
  'apiKeys.revoke': { as: 'owner', input: { apiKeyId: 'key-missing' }, status: 404 },
  'webhooks.list': { as: 'owner', input: { limit: 10 }, status: 200 },
  // Any valid body creates an endpoint: only the variants its schema refuses are sent.
  'webhooks.create': { as: 'owner', input: { url: 'https://hooks.example.com/x', types: ['vm.reclaimed'], description: 'x', enabled: true }, status: 200, skipAccepted: true },
  'webhooks.get': { as: 'owner', input: { webhookId: 'wh-missing' }, status: 404 },
  'webhooks.update': { as: 'owner', input: { webhookId: 'wh-missing', url: 'https://hooks.example.com/y', types: [], description: 'x', enabled: false }, status: 404 },
  'webhooks.delete': { as: 'owner', input: { webhookId: 'wh-missing' }, status: 404 },
  'webhooks.rotateSecret': { as: 'owner', input: { webhookId: 'wh-missing' }, status: 404 },
  'webhooks.attempts': { as: 'owner', input: { webhookId: 'wh-missing', limit: 10 }, status: 404 },
  'webhooks.redeliver': { as: 'owner', input: { webhookId: 'wh-missing', eventId: 'ev-missing' }, status: 404 },
  'members.list': { as: 'owner', input: undefined, status: 200 },
  'members.changeRole': { as: 'owner', input: { userId: 'user-missing', role: 'viewer' }, status: 404 },
  'members.remove': { as: 'owner', input: { userId: 'user-missing' }, status: 404 },
  // Every accepted input makes an invitation: none writes nothing (as apiKeys.create).
  'members.invite': { as: 'owner', input: { role: 'member' }, status: 200, skipAccepted: true },
  'members.revokeInvite': { as: 'owner', input: { inviteId: 'inv-missing' }, status: 404 },
  'signIns.locked': { as: 'platform', input: undefined, status: 200 },
  'signIns.unlock': { as: 'platform', input: { userId: 'user-missing' }, status: 404 },
};

// ── Sending one call ────────────────────────────────────────────────────────────────────

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>);

const endpoint = 'http://localhost:3000/api/trpc';
const sameOrigin = { 'sec-fetch-site': 'same-origin' };
/** superjson's wire form; for what its client refuses to send (a `__proto__` key), the same form by hand, as an attacker would. */
const wire = (input: unknown) => {
  try {
    return JSON.stringify(superjson.serialize(input));
  } catch {
    return JSON.stringify({ json: input });
  }
};

/** One HTTP request to the endpoint; `body` makes it a POST unless `method` says otherwise. */
type Call = { label: string; path: string; method?: string; query?: string; body?: BodyInit; headers?: Record<string, string>; allowed: readonly number[] };

/** The problem an answer carries: tRPC's error envelope (each of a batch), or the endpoint's own problem+json. */
function problemsOf(json: unknown): (Record<string, unknown> | null)[] {
  const one = (x: unknown): Record<string, unknown> | null => {
    const r = x as { error?: { json?: { data?: { problem?: Record<string, unknown> } } }; code?: unknown; type?: unknown };
    if (r?.error) return r.error.json?.data?.problem ?? null;
    return typeof r?.code === 'string' && typeof r?.type === 'string' ? (r as Record<string, unknown>) : null;
  };
  return Array.isArray(json) ? json.map(one) : [one(json)];
}

async function send(c: Call, as: Who | null, role: MembershipRole = 'admin'): Promise<string | null> {
  session.current = as
    ? {
        principal: { orgId: ORG[as], actor: { kind: 'user', userId: `user_${as}` }, via: 'console', role },
        user: { id: `user_${as}`, email: `${as}@example.com`, name: as },
        orgs: [{ id: ORG[as], name: as, role }],
        sessionId: `ses_${as}`,
        grants: roleGrants[role],
      }
    : null;
  const method = c.method ?? (c.body === undefined ? 'GET' : 'POST');
  const headers = { ...sameOrigin, ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}), ...c.headers };
  const req = new Request(`${endpoint}/${c.path}${c.query ? `?${c.query}` : ''}`, { method, headers, body: c.body, duplex: 'half' } as RequestInit);
  const res = await withinTime(handleTrpcRequest(req), c.label);
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    return res.status >= 400 ? `${c.label}: ${res.status} not JSON: ${text.slice(0, 200)}` : null;
  }
  if (res.status < 400) return judge({ label: c.label, status: res.status, problem: null, allowed: c.allowed });
  // Every error of a batch must carry its problem; the response's status is the worst of them.
  for (const problem of problemsOf(json)) {
    const why = judge({ label: c.label, status: Number(problem?.status ?? res.status), problem, allowed: c.allowed });
    if (why) return why;
  }
  return c.allowed.includes(res.status) ? null : `${c.label}: HTTP ${res.status} (expected ${c.allowed.join(' or ')})`;
}

/** A call of `path` with `input`, as the console's client sends it: GET ?input= for a query, POST for a mutation. */
function callOf(path: string, type: string, input: unknown, label: string, allowed: readonly number[], extra: Partial<Call> = {}): Call {
  return type === 'query'
    ? { label, path, query: `input=${encodeURIComponent(wire(input))}`, allowed, ...extra }
    : { label, path, body: wire(input), allowed, ...extra };
}

// ── The corpus, per procedure ───────────────────────────────────────────────────────────

/** Payloads that are JSON but not superjson's, or superjson whose meta lies. */
const badSuperjson = (json: unknown): unknown[] => [
  null,
  [],
  'x',
  { meta: {} },
  { json, meta: null },
  { json, meta: 'x' },
  { json, meta: { values: 'str' } },
  { json, meta: { values: 42 } },
  { json, meta: { values: { x: ['custom', 'Nope'] } } },
  { json, meta: { values: [['class', 'Evil']] } },
  { json, meta: { values: ['Error'] } },
  { json, meta: { values: ['map'] } },
  { json, meta: { values: ['set'] } },
  { json, meta: { values: ['bigint'] } },
  { json, meta: { values: ['regexp'] } },
  { json, meta: { values: ['symbol'] } },
  { json, meta: { values: { '__proto__.polluted': ['undefined'] } } },
  { json, meta: { values: { 'constructor.prototype.polluted': ['undefined'] } } },
  { json, meta: { referentialEqualities: { '': ['__proto__.polluted'] } } },
  { json: '1e99999', meta: { values: ['bigint'] } },
  { json: '9'.repeat(50_000), meta: { values: ['bigint'] } },
];
const malformedJson = ['{', '', '{"json":', 'nul', '{"json":{}} x', '['.repeat(20_000) + ']'.repeat(20_000)];
const wrongMediaTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin1',
];
const crossSite: Record<string, string>[] = [
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:3000' },
  { 'sec-fetch-site': '', origin: 'https://evil.example' },
  { 'sec-fetch-site': '', origin: 'null' },
  { 'sec-fetch-site': '', origin: 'http://localhost:3000.evil.example' },
];

function callsOf(path: string, type: string, schema: z.ZodType | undefined, base: Base): Call[] {
  const out: Call[] = [];
  const ok = [base.status];
  const add = (label: string, input: unknown, allowed: readonly number[], extra: Partial<Call> = {}) =>
    out.push(callOf(path, type, input, `${path} — ${label}`, allowed, extra));
  const json = superjson.serialize(base.input).json;

  // Every input mutation: refused by the schema → 400 naming the input; accepted → the base's answer.
  for (const m of mutationsOf(base.input, 'input')) {
    const e = expectationFor(schema!, m.value, m.mustFail, base.status);
    if (!e.rejected && base.skipAccepted) continue;
    add(m.label, m.value, e.allowed);
  }
  // Raw payloads in the transport's own slot (GET ?input= / POST body).
  const raw = (label: string, text: string, allowed: readonly number[], extra: Partial<Call> = {}) =>
    out.push({ label: `${path} — ${label}`, path, allowed, ...(type === 'query' ? { query: `input=${encodeURIComponent(text)}` } : { body: text }), ...extra });
  for (const p of badSuperjson(json)) raw(`superjson ${JSON.stringify(p)?.slice(0, 50)}`, JSON.stringify(p), [400]);
  for (const t of malformedJson) if (t || type !== 'query') raw(`malformed JSON ${JSON.stringify(t.slice(0, 20))}`, t, [400]);

  // Methods: a query is GET only, a mutation POST only (405 METHOD_NOT_SUPPORTED with the problem).
  if (type === 'query') out.push({ label: `${path} — query via POST`, path, body: wire(base.input), allowed: [405] });
  else out.push({ label: `${path} — mutation via GET`, path, query: `input=${encodeURIComponent(wire(base.input))}`, allowed: [405] });
  for (const method of ['PUT', 'PATCH', 'DELETE']) out.push({ label: `${path} — ${method}`, path, method, body: wire(base.input), allowed: [405] });

  if (type === 'mutation') {
    for (const t of wrongMediaTypes) add(`Content-Type ${t}`, base.input, [415], { headers: { 'content-type': t } });
    add('Content-Encoding gzip', base.input, [415], { headers: { 'content-encoding': 'gzip' } });
    // The 64 KiB cap on this procedure: padded with JSON whitespace, the same call is answered
    // at the limit and refused one byte past it.
    const body = wire(base.input);
    const pad = (n: number) => `${body.slice(0, -1)}${' '.repeat(n - Buffer.byteLength(body))}}`;
    if (!base.skipAccepted) raw('body of exactly 64 KiB', pad(MAX_BODY_BYTES), ok);
    raw('body of 64 KiB + 1', pad(MAX_BODY_BYTES + 1), [413]);
    raw('streamed 4 MiB body', '', [413], { body: new Blob([body.slice(0, -1), ',"x":"', 'x'.repeat(4 * 1024 * 1024), '"}']).stream() });
  }

  // Batches: over the cap (refused whole, nothing runs), non-object and misnumbered inputs.
  const n = MAX_BATCH_SIZE + 1;
  const batchInput = JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), superjson.serialize(base.input)])));
  const over = Array.from({ length: n }, () => path).join(',');
  const batch = (label: string, paths: string, text: string, allowed: readonly number[]) =>
    out.push({
      label: `${path} — batch ${label}`,
      path: paths,
      allowed,
      ...(type === 'query' ? { query: `batch=1&input=${encodeURIComponent(text)}` } : { query: 'batch=1', body: text }),
    });
  batch(`of ${n}`, over, batchInput, [400]);
  batch(`of ${n}, commas percent-encoded`, over.replaceAll(',', '%2C'), batchInput, [400]);
  batch('of 1000', Array.from({ length: 1000 }, () => path).join(','), '{}', [400]);
  batch('with input an array', path, JSON.stringify([superjson.serialize(base.input)]), [400]);
  batch('with input a string', path, '"x"', [400]);

  // Names near this one: 404 NOT_FOUND with the problem. (tRPC trims slashes: `${path}/` is this very procedure.)
  for (const name of [
    `${path}x`,
    `${path}.x`,
    path.toUpperCase(),
    `${path}%00`,
    `${path}%20`,
    `${path}%2F`,
    `${path}..`,
    `${path.split('.')[0]}.__proto__`,
    `${path.split('.')[0]}.constructor`,
    `${path.split('.')[0]}._def`,
  ]) {
    out.push(callOf(name, type, base.input, `${path} — procedure name ${JSON.stringify(name)}`, [404]));
  }
  if (!base.skipAccepted) out.push(callOf(`${path}/`, type, base.input, `${path} — trailing slash`, ok));
  // Cross-site: the session cookie is never used (UNAUTHORIZED, as with no cookie).
  for (const headers of crossSite) add(`cross-site ${JSON.stringify(headers)}`, base.input, [401], { headers });
  add('acting org not the session’s', base.input, [409], { headers: { [ACTING_ORG_HEADER]: ORG.other } });
  return out;
}

// ── The tests ───────────────────────────────────────────────────────────────────────────

const scene = useHostileScene();
let sent = 0;

async function runAll(calls: Call[], as: Who | null, role: MembershipRole = 'admin'): Promise<string[]> {
  const failures: string[] = [];
  for (const c of calls) {
    try {
      const why = await send(c, as, role);
      sent++;
      if (why) failures.push(why);
    } catch (e) {
      failures.push(`${c.label}: threw ${(e as Error).message.slice(0, 200)}`);
    }
  }
  return failures;
}

describe('hostile input over tRPC (docs/product.md §8 R3)', () => {
  for (const [path, proc] of procedures) {
    it(path, async () => {
      const base = bases[path];
      expect(base, `a corpus base for ${path}`).toBeDefined();
      const type = proc._def.type;
      if (!base!.skipAccepted) {
        const plain = await runAll([callOf(path, type, base!.input, `${path} — base`, [base!.status])], base!.as);
        expect(plain, 'the base answers as declared').toEqual([]);
      }
      expect(await runAll(callsOf(path, type, proc._def.inputs[0], base!), base!.as)).toEqual([]);
      expect(({} as Record<string, unknown>).polluted, 'no prototype pollution').toBeUndefined();
      expect(await snapshotTables(scene.db()), 'the database after this procedure’s corpus').toEqual(scene.before());
    });
  }

  it('refuses a role that does not grant the procedure’s scope with 403, whatever the input (checked before it)', async () => {
    // The mix: a viewer for every action, a member for keys, webhooks, members and sign-in locks.
    const failures: string[] = [];
    let refused = 0;
    for (const [path, proc] of procedures) {
      const scope = operationById(path as OperationId).scope;
      const role: MembershipRole | null = !roleGrants.viewer.includes(scope as 'read')
        ? roleGrants.member.includes(scope as 'read')
          ? 'viewer'
          : 'member'
        : null;
      if (!role) continue;
      const base = bases[path]!;
      const type = proc._def.type;
      const inputs = [{ label: 'base', value: base.input }, ...mutationsOf(base.input, 'input').filter((_, i) => i % 5 === 0)];
      const calls = inputs.map((m) => callOf(path, type, m.value, `${path} as a ${role} — ${m.label}`, [403]));
      refused += calls.length;
      failures.push(...(await runAll(calls, base.as, role)));
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect(await snapshotTables(scene.db()), 'the database after the role corpus').toEqual(scene.before());
  });

  it('answers unknown procedure names with 404 and the problem', async () => {
    const names = [
      '',
      'nope',
      'nodes',
      'nodes.',
      '.get',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '_def',
      'nodes._def',
      'createCaller',
      "nodes.get'; DROP TABLE nodes;--",
      'nodes.get%00',
      'nodes%2Fget',
      '../nodes.get',
      'nodes.get🚀',
      'x'.repeat(5_000),
      ...hostilePathValues.filter((p) => !p.includes('/') && !/[\ud800-\udfff]/.test(p)).map(encodeURIComponent),
    ];
    const calls = names.map((name) => ({
      label: `procedure ${JSON.stringify(name.slice(0, 40))}`,
      path: name,
      query: `input=${encodeURIComponent(wire({ nodeId: 'n1' }))}`,
      allowed: [404],
    }));
    expect(await runAll(calls, 'owner')).toEqual([]);
  });

  it('has a corpus base for every procedure, and none for a procedure that does not exist', () => {
    const names = procedures.map(([p]) => p);
    expect(
      names.filter((p) => !bases[p]),
      'procedures without a base',
    ).toEqual([]);
    expect(
      Object.keys(bases).filter((p) => !names.includes(p)),
      'bases naming no procedure',
    ).toEqual([]);
  });

  it('leaves the database as it found it, and sent well over 100 hostile inputs', async () => {
    expect(await snapshotTables(scene.db())).toEqual(scene.before());
    console.info(`hostile inputs over tRPC: ${sent}`);
    expect(sent).toBeGreaterThan(100 * procedures.length);
  });
});
