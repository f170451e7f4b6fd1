/// <reference types="vite/client" />
/**
 * docs/product.md §8 R3 over REST: every route of the route table (server/rest/routes.ts) takes
 * the hostile-input corpus — malformed JSON, wrong types, missing and extra fields, huge arrays
 * and bodies (the 64 KiB cap, per route), duplicate ids and keys, odd Unicode, SQL and LIKE
 * metacharacters in path, query and body, path tricks, wrong content types, methods and
 * credentials — and answers each with a 4xx problem+json that says what is wrong: never a 5xx,
 * never a hang, and the database is equal before and after (server/testing/hostile.ts).
 *
 * Each route starts from a valid request (`bases`) that writes nothing: a read, or a write
 * addressed to an unknown resource or by a principal it refuses, so that any variant the
 * schema accepts is still refused (404/403) after validation, and the check order of §5
 * (400 before 404) is part of what is proven. Path tricks that only Next's own URL parsing can
 * produce (a trailing slash, an encoded slash) are in e2e/api/hostile-paths.spec.ts.
 */
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../http/body';
import type { RouteSpec } from './route-spec';
import { restRoutes } from './routes';
import { expectationFor, hostilePathValues, hostileStrings, judge, mutationsOf, snapshotTables, withinTime } from '../testing/hostile';
import { apiKeyScopes, type ApiKeyScope } from '@/db/schema';
import { issueApiKey } from '../api-keys/internal';
import { issueKeys } from '../testing/rest';
import { useHostileScene } from '../testing/hostile-scene';
import { ORG } from '../testing/scene';
import { bases, type Base } from '../testing/rest-bases';

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routeFiles = import.meta.glob<Record<string, RouteHandler>>('../../app/v1/**/route.ts', { eager: true });
const routeFileOf = (template: string) => `../../app/v1/${template.replace(/^\/v1\/?/, '').replace(/\{(\w+)\}/g, '[$1]')}/route.ts`;

// ── Sending one request ─────────────────────────────────────────────────────────────────

let keys: Record<string, string>;

type Req = { method: string; path: string; params: Record<string, string>; headers: Record<string, string>; body?: BodyInit };
type Answer = { status: number; problem: Record<string, unknown> | null; contentType: string | null; allow: string | null; text: string };

/** Percent-encodes a path segment; one that is not Unicode (a lone surrogate) goes in as is, as a client that sends it would. */
const segment = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return s;
  }
};

async function send(spec: Pick<RouteSpec, 'path'>, r: Req, label: string): Promise<Answer> {
  const handler = routeFiles[routeFileOf(spec.path)]![r.method]!;
  const url = `http://localhost${r.path}`;
  const req = new Request(url, { method: r.method, headers: r.headers, body: r.body, duplex: 'half' } as RequestInit);
  const res = await withinTime(handler(req, { params: Promise.resolve(r.params) }), label);
  const text = await res.text();
  let problem: Record<string, unknown> | null = null;
  try {
    problem = res.status >= 400 && text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    problem = null;
  }
  return { status: res.status, problem, contentType: res.headers.get('content-type'), allow: res.headers.get('allow'), text };
}

/** A hostile variant of a base request: each part replaces the base's. */
type Variant = {
  label: string;
  allowed: readonly number[];
  params?: Record<string, string>;
  query?: string;
  body?: BodyInit;
  headers?: Record<string, string>;
  method?: string;
  noBody?: boolean;
  check?: (a: Answer) => string | null;
};

function requestOf(spec: RouteSpec, base: Base, v: Variant): Req {
  const params = v.params ?? base.params ?? {};
  const path = spec.path.replace(/\{(\w+)\}/g, (_, k: string) => segment(params[k] ?? ''));
  const query = v.query ?? new URLSearchParams(base.query ?? {}).toString();
  const auth: Record<string, string> = base.as ? { authorization: `Bearer ${keys[ORG[base.as]]}` } : {};
  const json: Record<string, string> = spec.body ? { 'content-type': 'application/json' } : {};
  const body = v.noBody ? undefined : (v.body ?? (spec.body ? JSON.stringify(base.body) : undefined));
  return {
    method: v.method ?? spec.method,
    path: query ? `${path}?${query}` : path,
    params,
    headers: { ...auth, ...json, ...base.headers, ...v.headers },
    body,
  };
}

// ── The corpus, derived per route ───────────────────────────────────────────────────────

const shapeOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> => (schema && 'shape' in schema ? (schema.shape as Record<string, z.ZodType>) : {});

const malformedJson = [
  '{',
  '{"unitIds":',
  '{"a":}',
  '[',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{} {}',
  '{"a":01}',
  '{"a":"\\x"}',
  '{"a":"\u0001"}',
  '/* */ {}',
  '\ufeff\ufeff{}',
];
/** Valid JSON, but deeper than any request needs: refused by depth, before any recursive walk. */
const tooDeep = ['['.repeat(20_000) + ']'.repeat(20_000), '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000), `{"reason":${'['.repeat(33)}${']'.repeat(33)}}`];
const nonObjects = ['[]', 'null', '42', '"x"', 'true', '[{}]'];
const wrongMediaTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonx',
  'json',
  'application/*',
  'application/json, text/plain',
];
const badCredentials = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer gpuk_nope',
  `Bearer ${'k'.repeat(10_000)}`,
  "Bearer ' OR '1'='1",
  'Bearer %',
  'Bearer a b',
  'Basic YTpi',
  'Bearer\tgpuk_x',
  'Bearer gpuk_x, Bearer gpuk_y',
];

function variantsOf(spec: RouteSpec, base: Base): Variant[] {
  const out: Variant[] = [];
  const ok = [base.status];
  const add = (v: Variant) => out.push(v);

  // Credentials first (401 before 400, docs/product.md §5), with a hostile query to prove the order.
  if (spec.auth !== 'none')
    for (const c of badCredentials)
      add({ label: `Authorization ${JSON.stringify(c.slice(0, 30))}`, allowed: [401], headers: { authorization: c }, query: 'bogus=1' });

  // Query: unknown and repeated parameters, raw tricks, and every parameter × every hostile string.
  const queryShape = shapeOf(spec.query ?? undefined);
  const baseQuery = base.query ?? {};
  add({ label: 'unknown query parameter', allowed: [400], query: new URLSearchParams({ ...baseQuery, "'; DROP TABLE nodes;--": '1' }).toString() });
  for (const raw of ['limit=1&limit=2', '=x', 'a[]=1', '__proto__=1', 'constructor=1', '%ZZ=1', `${'k'.repeat(5_000)}=1`])
    add({ label: `query ${raw.slice(0, 30)}`, allowed: [400], query: raw });
  add({ label: 'empty query parameters', allowed: ok, query: '&&' });
  for (const [k] of Object.entries(queryShape)) {
    for (const s of [...hostileStrings, { label: '%00 raw', value: '%00', mustFail: false }]) {
      const query = new URLSearchParams({ ...baseQuery, [k]: s.value }).toString();
      // What the server reads: a URL carries UTF-8, so a lone surrogate arrives as U+FFFD.
      const received = Object.fromEntries(new URLSearchParams(query));
      const e = expectationFor(spec.query!, received, s.mustFail && received[k] === s.value, base.status);
      add({ label: `query.${k}: ${s.label}`, allowed: e.allowed, query });
    }
  }

  // Path: every parameter × every hostile segment is 404.
  for (const k of Object.keys(shapeOf(spec.params ?? undefined))) {
    for (const p of hostilePathValues) add({ label: `path {${k}} = ${JSON.stringify(p.slice(0, 30))}`, allowed: [404], params: { ...base.params, [k]: p } });
  }

  // A field the path fills, sent in the query or body too (under the parameter's name or the
  // field's), is refused, never merged over the path's (server/rest/route.ts readInput).
  for (const [name, field] of Object.entries(spec.paramFields)) {
    for (const k of new Set([name, field])) {
      const value = base.params?.[name] ?? 'n1';
      if (spec.body) add({ label: `body.${k}, which the path fills`, allowed: [400], body: JSON.stringify({ ...(base.body as object), [k]: value }) });
      else add({ label: `query.${k}, which the path fills`, allowed: [400], query: new URLSearchParams({ ...baseQuery, [k]: value }).toString() });
    }
  }

  if (!spec.body) return out;
  const valid = JSON.stringify(base.body);
  for (const b of malformedJson) add({ label: `malformed JSON ${JSON.stringify(b.slice(0, 20))}`, allowed: [400], body: b });
  for (const b of tooDeep)
    add({
      label: `JSON nested ${b.length} characters deep`,
      allowed: [400],
      body: b,
      check: (a) => (String(a.problem?.detail).includes('levels deep') ? null : `deep JSON: ${String(a.problem?.detail)}`),
    });
  for (const b of nonObjects) add({ label: `JSON body ${b}`, allowed: [400], body: b });
  add({ label: 'invalid UTF-8', allowed: [400], body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) });
  const firstKey = Object.keys(base.body as object)[0];
  add({ label: 'key given twice', allowed: [400], body: firstKey ? `{${JSON.stringify(firstKey)}:null,${valid.slice(1)}` : '{"a":1,"a":2}' });
  for (const t of wrongMediaTypes) add({ label: `Content-Type ${t}`, allowed: [415], headers: { 'content-type': t } });
  add({ label: 'no Content-Type', allowed: [415], headers: { 'content-type': '' } });
  for (const e of ['gzip', 'br', 'deflate, identity']) add({ label: `Content-Encoding ${e}`, allowed: [415], headers: { 'content-encoding': e } });
  add({ label: 'Content-Type in capitals, quoted charset', allowed: ok, headers: { 'content-type': 'APPLICATION/JSON; charset="UTF-8"' } });
  // RFC 8259 §8.1 lets a parser ignore one byte order mark; a second is not JSON.
  add({ label: 'UTF-8 byte order mark', allowed: ok, body: `\ufeff${valid}` });
  // The cap (docs/product.md §5 Requests: at most 64 KiB, else 413), proven on this route: the
  // same valid body padded with JSON whitespace to the limit is answered, one byte more is not.
  const pad = (n: number) => valid.replace(/\}$/, `${' '.repeat(n - Buffer.byteLength(valid))}}`);
  add({ label: 'body of exactly 64 KiB', allowed: ok, body: pad(MAX_BODY_BYTES) });
  add({ label: 'body of 64 KiB + 1', allowed: [413], body: pad(MAX_BODY_BYTES + 1) });
  add({ label: 'declared Content-Length of 1 GB', allowed: [413], headers: { 'content-length': String(1e9) } });
  add({ label: 'streamed 4 MiB body', allowed: [413], body: new Blob([valid.slice(0, -1), ',"reason":"', 'x'.repeat(4 * 1024 * 1024), '"}']).stream() });
  // A 413 comes before the 400 a huge body would otherwise earn.
  add({ label: '70 KB reason', allowed: [413], body: JSON.stringify({ ...(base.body as object), reason: 'x'.repeat(70_000) }) });
  if (spec.method !== 'GET')
    for (const k of ['', 'k'.repeat(256)]) add({ label: `Idempotency-Key of ${k.length} characters`, allowed: [400], headers: { 'idempotency-key': k } });
  for (const m of mutationsOf(base.body, 'body')) {
    const e = expectationFor(spec.body, m.value, m.mustFail, base.status);
    add({ label: m.label, allowed: e.allowed, body: JSON.stringify(m.value) ?? 'undefined' });
  }
  return out;
}

// ── The tests ───────────────────────────────────────────────────────────────────────────

/** Per org and scope: a key holding every scope but that one (docs/product.md §2 Scopes): the mix the scope corpus sends. */
let keysLacking: Record<string, Record<ApiKeyScope, string>> = {};
const scene = useHostileScene(async (db) => {
  keys = await issueKeys(db, Object.values(ORG));
  keysLacking = {};
  for (const orgId of Object.values(ORG)) {
    const byScope = {} as Record<ApiKeyScope, string>;
    for (const scope of apiKeyScopes)
      byScope[scope] = (await issueApiKey(db, { orgId, name: `lacks ${scope}`, now: new Date(), scopes: apiKeyScopes.filter((x) => x !== scope) })).secret;
    keysLacking[orgId] = byScope;
  }
});
let sent = 0;

async function runAll(spec: RouteSpec, base: Base, variants: Variant[]): Promise<string[]> {
  const failures: string[] = [];
  for (const v of variants) {
    const label = `${spec.method} ${spec.path} — ${v.label}`;
    try {
      const a = await send(spec, requestOf(spec, base, v), label);
      sent++;
      const why =
        judge({ label: v.label, status: a.status, problem: a.problem, allowed: v.allowed, contentType: a.status >= 400 ? a.contentType : undefined }) ??
        v.check?.(a) ??
        null;
      if (why) failures.push(why);
    } catch (e) {
      failures.push(`${v.label}: threw ${(e as Error).message.slice(0, 200)}`);
    }
  }
  return failures;
}

/** A route's key in `bases`: its operation's id. */
const keyOf = (spec: RouteSpec) => (spec.id ?? spec.operationId) as keyof typeof bases;

describe('hostile input over REST (docs/product.md §8 R3)', () => {
  for (const spec of restRoutes) {
    it(`${spec.method} ${spec.path}`, async () => {
      const base = bases[keyOf(spec)];
      expect(base, `a corpus base for ${keyOf(spec)}`).toBeDefined();
      // The base itself answers as declared, so every variant's expectation starts from a known answer.
      const plain = await send(spec, requestOf(spec, base!, { label: 'base', allowed: [] }), 'base');
      expect(plain.status, `base of ${spec.operationId}: ${plain.text.slice(0, 200)}`).toBe(base!.status);
      const failures = await runAll(spec, base!, variantsOf(spec, base!));
      expect(failures).toEqual([]);
      expect(await snapshotTables(scene.db()), 'the database after this route’s corpus').toEqual(scene.before());
    });
  }

  it('refuses a key without the route’s scope with 403 insufficient_scope, whatever the path, query or body (checked before them)', async () => {
    const failures: string[] = [];
    for (const spec of restRoutes) {
      const base = bases[keyOf(spec)];
      if (!spec.scope || !base?.as || spec.scope === 'members:manage') continue;
      const key = keysLacking[ORG[base.as]]![spec.scope];
      const all = variantsOf(spec, base).filter((v) => v.headers?.authorization === undefined);
      // A sample of the corpus (every 7th, and the base itself): the refusal reads none of it.
      const sample = [{ label: 'base', allowed: [] } as Variant, ...all.filter((_, i) => i % 7 === 0)].map((v): Variant => ({
        ...v,
        label: `${v.label}, key lacking ${spec.scope}`,
        allowed: [403],
        headers: { ...v.headers, authorization: `Bearer ${key}` },
        check: (a) => (a.problem?.code === 'insufficient_scope' && a.problem.scope === spec.scope ? null : `${v.label}: ${a.text.slice(0, 200)}`),
      }));
      failures.push(...(await runAll(spec, base, sample)));
    }
    expect(failures).toEqual([]);
    expect(await snapshotTables(scene.db()), 'the database after the scope corpus').toEqual(scene.before());
  });

  it('answers a method no route of a path declares with 405, Allow and problem+json', async () => {
    const failures: string[] = [];
    for (const path of new Set(restRoutes.map((r) => r.path))) {
      const declared = restRoutes.filter((r) => r.path === path);
      const spec = declared[0]!;
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !declared.some((d) => d.method === m))) {
        const base = bases[keyOf(spec)]!;
        failures.push(
          ...(await runAll(spec, base, [
            {
              label: `${method} ${path}`,
              method,
              allowed: [405],
              noBody: method === 'GET',
              body: '{}',
              check: (a) => (a.allow?.includes(spec.method) ? null : `${method} ${path}: Allow is ${a.allow}`),
            },
          ])),
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('treats LIKE metacharacters in the org search as literal text', async () => {
    const spec = restRoutes.find((r) => r.id === 'orgs.search')!;
    const base = bases['orgs.search']!;
    // Each would match every org ("org_…") were it a wildcard.
    const literal = ['%', 'o%g', 'o_g', '\\', 'org\\', '%_%'].map((q): Variant => ({
      label: `q=${q}`,
      allowed: [200],
      query: new URLSearchParams({ q }).toString(),
      check: (a) => ((JSON.parse(a.text) as { items: unknown[] }).items.length === 0 ? null : `q=${q} matched ${a.text.slice(0, 100)}`),
    }));
    expect(await runAll(spec, base, literal)).toEqual([]);
  });

  it("refuses the node list's bad sort, search and filters with a 400 naming the parameter", async () => {
    const spec = restRoutes.find((r) => r.id === 'nodes.list')!;
    const refusals = [
      ['sort', 'units'],
      ['order', 'up'],
      ['q', 'x'.repeat(101)],
      ['owner', 'x'.repeat(101)],
      ['relation', 'friends'],
      ['hasReleased', 'yes'],
      ['needsReview', '1'],
    ].map(([name, value]): Variant => ({
      label: `${name}=${value!.slice(0, 10)}`,
      allowed: [400],
      query: new URLSearchParams({ [name!]: value! }).toString(),
      check: (a) => {
        const errors = (a.problem?.errors ?? []) as { path: string }[];
        return errors.some((e) => e.path === `query.${name}`) ? null : `${name}: ${a.text.slice(0, 200)}`;
      },
    }));
    // LIKE's wildcards in the search are literal: none matches every node.
    const literal = ['%', '_', '%_%'].map((q): Variant => ({
      label: `q=${q}`,
      allowed: [200],
      query: new URLSearchParams({ q }).toString(),
      check: (a) => ((JSON.parse(a.text) as { items: unknown[]; total: number }).total === 0 ? null : `q=${q} matched ${a.text.slice(0, 100)}`),
    }));
    expect(await runAll(spec, bases['nodes.list']!, [...refusals, ...literal])).toEqual([]);
  });

  it('has a corpus base for every route-table entry, and none for an entry that does not exist', () => {
    const ids: string[] = restRoutes.map(keyOf);
    expect(
      ids.filter((id) => !(id in bases)),
      'routes without a base',
    ).toEqual([]);
    expect(
      Object.keys(bases).filter((id) => !ids.includes(id)),
      'bases naming no route',
    ).toEqual([]);
  });

  it('leaves the database as it found it, and sent well over 100 hostile inputs', async () => {
    expect(await snapshotTables(scene.db())).toEqual(scene.before());
    console.info(`hostile inputs over REST: ${sent}`);
    expect(sent).toBeGreaterThan(100 * restRoutes.length);
  });
});
