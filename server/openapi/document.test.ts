import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { compileErrors, validate } from '@readme/openapi-parser';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { callRoute, issueKeys } from '../testing/rest';
import { buildScene, ORG } from '../testing/scene';
import { OPENAPI_PATH, restRoutes } from '../rest/routes';
import { buildOpenApiDocument } from './document';
import { projectContract } from './contract';
import contractSnapshot from './contract.snapshot.json';
import { errorTable, problemExtrasOf, type ErrorCode } from '../errors';
import { Problem, reclaimOnlyFields } from './schemas';

type RouteHandler = Parameters<typeof callRoute>[0];
type RouteModule = Partial<Record<string, RouteHandler>>;

const appV1 = path.resolve(import.meta.dirname, '../../app/v1');
const probedMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The published contract's Response fields (docs/product.md §5.1a), copied by hand: the contract is fixed. */
const seedResponseFields = [
  'allowedOrgIds',
  'contractRef',
  'createdAt',
  'endsAt',
  'id',
  'managingOrgIds',
  'nodeId',
  'reason',
  'releasedUnitIds',
  'reservedUnitIds',
  'skipped',
  'startsAt',
  'status',
  'terminated',
  'topologyGen',
  'updatedAt',
  'wouldSkip',
  'wouldTerminate',
];

/** The published contract's required Response fields (docs/product.md §5.1a). */
const seedRequiredFields = ['allowedOrgIds', 'id', 'nodeId', 'reservedUnitIds', 'startsAt', 'status'];

/** The published contract's Response descriptions, where it has one (docs/product.md §5.1a), copied by hand. */
const seedDescriptions: Record<string, string> = {
  allowedOrgIds: 'The audience: orgs that may place workloads on the reserved units.',
  endsAt: 'Absent = open-ended until cancelled',
  managingOrgIds:
    "Orgs that may release these units to the market, reclaim them, and terminate the spot workloads on them, on the node owner's behalf. Being in the audience does not confer this.",
  releasedUnitIds:
    "The subset of reservedUnitIds currently on the spot market (double sell). Still this reservation's capacity, sellable to anyone at tier=spot only, and reclaimable at any time.",
  skipped: 'Reclaim only: VM ids left running because they are not spot.',
  status:
    "needs-review means the node's GPU topology changed under the reservation: it grants nothing (and withholds its units from everyone) until an operator re-affirms it.",
  terminated: 'Reclaim only: spot VM ids terminated to free the reclaimed units.',
  topologyGen: 'Node topology generation this reservation was written against',
  wouldSkip: 'Reclaim dry run only: VM ids that would be left running.',
  wouldTerminate: 'Reclaim dry run only: the spot VM ids this call would terminate.',
};

/** Every `route.ts` under app/v1 but the bare /v1 and the catch-all, as OpenAPI path templates. */
function routeFiles(): { file: string; path: string; params: Record<string, string> }[] {
  const out: { file: string; path: string; params: Record<string, string> }[] = [];
  for (const entry of readdirSync(appV1, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'route.ts') continue;
    const dir = path.relative(appV1, entry.parentPath);
    if (dir === '') continue;
    const segments = dir.split(path.sep);
    if (segments.some((s) => s.startsWith('[...'))) continue;
    const params: Record<string, string> = {};
    const template = segments.map((s) => {
      const m = /^\[(\w+)\]$/.exec(s);
      if (!m) return s;
      params[m[1]!] = `sample-${m[1]}`;
      return `{${m[1]}}`;
    });
    out.push({ file: path.join(entry.parentPath, entry.name), path: `/v1/${template.join('/')}`, params });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

let tdb: TestDatabase;

beforeAll(async () => {
  // Route handlers open DATABASE_URL even to answer 401; this points it at a private database.
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());

describe('GET /v1/openapi.json', () => {
  const doc = buildOpenApiDocument(restRoutes);

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // validate() dereferences in place; keep the built document untouched.
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('documents exactly the path+method pairs that the route files under app/v1 answer', async () => {
    const answered: string[] = [];
    for (const route of routeFiles()) {
      const mod = (await import(route.file)) as RouteModule;
      const urlPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => route.params[name]!);
      const declared: string[] = [];
      for (const method of probedMethods) {
        const fn = mod[method];
        expect(fn, `${route.file} exports ${method}`).toBeTypeOf('function');
        const res = await callRoute(fn!, { method, path: urlPath, params: route.params });
        // No credentials: a declared method answers 401 (or 200 for the public document);
        // anything else answers 405.
        if (res.status === 405) continue;
        expect([200, 401], `${method} ${route.path}`).toContain(res.status);
        declared.push(method);
      }
      const options = await callRoute(mod.OPTIONS!, { method: 'OPTIONS', path: urlPath, params: route.params });
      const allow = (options.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').sort(), `Allow of ${route.path}`).toEqual([...declared].sort());
      answered.push(...declared.map((m) => `${m} ${route.path}`));
    }
    const documented = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual(answered.sort());
    expect(answered).toContain('POST /v1/nodes/{nodeId}/reservations/{id}/reclaim');
  });

  it('serves the document without credentials, the same one buildOpenApiDocument() builds', async () => {
    const { GET } = (await import('@/app/v1/openapi.json/route')) as Record<string, RouteHandler>;
    const res = await callRoute(GET!, { path: OPENAPI_PATH });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('requires bearer auth on every operation but its own, and an Idempotency-Key parameter on every mutation but creating an API key', () => {
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item) as [
        string,
        { security?: unknown[]; parameters?: { $ref?: string }[]; responses: Record<string, unknown> },
      ][]) {
        if (p === OPENAPI_PATH) expect(op.security).toEqual([]);
        else {
          // The scope the key needs, per operation (docs/product.md §2 Scopes), beside the bearer scheme.
          const scope = restRoutes.find((r) => r.method.toLowerCase() === method && r.path === p)?.scope;
          expect(op.security, `${method} ${p}`).toEqual([{ bearerAuth: [scope] }]);
          expect((op as { 'x-scope'?: string })['x-scope'], `${method} ${p}`).toBe(scope);
          expect(Object.keys(op.responses), `${method} ${p}`).toContain('403');
          expect(Object.keys(op.responses), `${method} ${p}`).toEqual(expect.arrayContaining(['400', '401', '429']));
        }
        const idem = (op.parameters ?? []).some((x) => x.$ref === '#/components/parameters/IdempotencyKey');
        // Creating an API key or a webhook, and rotating a webhook's secret, refuse the header: their
        // answers hold a secret, which is never stored.
        const refused = ['post /v1/api-keys', 'post /v1/webhooks', 'post /v1/webhooks/{id}/rotate-secret'].includes(`${method} ${p}`);
        expect(refused, `${method} ${p} is declared idempotency: refused`).toBe(
          restRoutes.some((r) => r.method.toLowerCase() === method && r.path === p && r.idempotency === 'refused'),
        );
        expect(idem, `${method} ${p} Idempotency-Key`).toBe(method !== 'get' && !refused);
      }
    }
    expect(doc.components?.parameters?.IdempotencyKey).toMatchObject({ in: 'header', name: 'Idempotency-Key' });
  });

  it('declares the success status each route declares', () => {
    const created = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
      Object.entries(item as Record<string, { responses: Record<string, unknown> }>)
        .filter(([, op]) => '201' in op.responses)
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(created.sort()).toEqual([
      'POST /v1/api-keys',
      'POST /v1/nodes',
      'POST /v1/nodes/{nodeId}/reservations',
      'POST /v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims',
      'POST /v1/vms',
      'POST /v1/webhooks',
    ]);
  });

  it('documents the reclaim body, expectedTerminate marked as this API’s extension', () => {
    const op = doc.paths?.['/v1/nodes/{nodeId}/reservations/{id}/reclaim']?.post;
    const body =
      (op?.requestBody as {
        required: boolean;
        content: Record<string, { schema: { properties: Record<string, Record<string, unknown>>; required: string[] } }>;
      }) ?? null;
    expect(body?.required).toBe(true);
    const schema = body!.content['application/json']!.schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['dryRun', 'expectedTerminate', 'reason', 'unitIds']);
    expect(schema.required).toEqual(['unitIds']);
    expect(schema.properties.expectedTerminate).toMatchObject({ type: 'array', 'x-extension': true, description: expect.stringContaining('Extension') });
    expect(schema.properties.dryRun).toMatchObject({
      type: 'boolean',
      description: 'Report which spot workloads would be terminated, and change nothing: no terminations, and the capacity boundary stays where it is.',
    });
    expect(schema.properties.reason).toMatchObject({ type: 'string', description: 'Recorded in the audit trail.' });
    // The published summary, description, path parameters and success description, verbatim.
    expect(op?.summary).toBe('Take released GPU units back off the market, evicting spot workloads');
    expect(op?.description).toBe(
      "Returns the named units to exclusive use AND terminates the spot workloads running on them, in one call. Everything evicted was bought at the spot tier, whose terms are exactly that the capacity owner can reclaim without notice. Pass dryRun to see what would be terminated without changing anything. Callable by a platform operator, the org that owns the node, or an org in the reservation's managingOrgIds.",
    );
    expect((op?.parameters as { in: string; name: string; required: boolean }[]).filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual([
      ['nodeId', true],
      ['id', true],
    ]);
    expect((op?.responses?.['200'] as { description: string }).description).toBe('OK');
  });

  it('gives Reservation exactly the published contract’s fields, and the reclaim answer the reclaim-only ones by dryRun', () => {
    type ObjectSchema = { properties: Record<string, { description?: string }>; required: string[]; additionalProperties: boolean };
    const schemas = doc.components?.schemas as Record<string, ObjectSchema>;
    const reservation = schemas.Reservation!;
    expect(Object.keys(reservation.properties).sort()).toEqual(seedResponseFields.filter((f) => !(reclaimOnlyFields as readonly string[]).includes(f)));
    expect(reservation.additionalProperties).toBe(false);
    // Optional strings are omitted when unset (docs/product.md §5); everything else is always present.
    expect(seedResponseFields.filter((f) => !reservation.required.includes(f))).toEqual([
      'contractRef',
      'endsAt',
      'reason',
      'skipped',
      'terminated',
      'wouldSkip',
      'wouldTerminate',
    ]);
    expect(reservation.properties.endsAt?.description).toBe('Absent = open-ended until cancelled');

    expect(doc.components?.schemas?.ReclaimResponse).toEqual({
      anyOf: [{ $ref: '#/components/schemas/ReclaimApplied' }, { $ref: '#/components/schemas/ReclaimDryRun' }],
    });
    const applied = schemas.ReclaimApplied!;
    const dryRun = schemas.ReclaimDryRun!;
    // Both variants name every field of the published Response, and nothing else; each names
    // the other's pair as never present, so that a client can narrow on it.
    expect(Object.keys(applied.properties).sort()).toEqual(seedResponseFields);
    expect(Object.keys(dryRun.properties).sort()).toEqual(seedResponseFields);
    expect(applied.properties.wouldTerminate).toMatchObject({ not: {} });
    expect(dryRun.properties.terminated).toMatchObject({ not: {} });
    // What the contract leaves optional is optional: only its required fields, and each
    // variant's own pair, are required.
    expect([...applied.required].sort()).toEqual([...seedRequiredFields, 'skipped', 'terminated'].sort());
    expect([...dryRun.required].sort()).toEqual([...seedRequiredFields, 'wouldSkip', 'wouldTerminate'].sort());
    // The published descriptions, verbatim, wherever the field is described.
    for (const variant of [applied, dryRun, reservation]) {
      for (const [field, description] of Object.entries(seedDescriptions)) {
        if (variant.properties[field]) expect(variant.properties[field]!.description, field).toBe(description);
      }
    }
  });

  it('keeps every path, operation, type and required list of the published contract (contract.snapshot.json)', () => {
    // Descriptions may grow; structure may not change. A new route adds to the snapshot
    // (`npx tsx server/openapi/contract.ts --write`); a changed one is a breaking change.
    const now = projectContract(doc);
    const before = contractSnapshot as ReturnType<typeof projectContract>;
    for (const [key, op] of Object.entries(before.operations)) expect(now.operations[key], key).toEqual(op);
    for (const [name, schema] of Object.entries(before.schemas)) expect(now.schemas[name], name).toEqual(schema);
  });

  it('describes everything in plain words, naming nothing outside the document, and states its license', () => {
    const outside: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (['description', 'summary', 'title'].includes(k) && typeof v === 'string' && /docs\/|§|\.md\b|\b[\w/-]+\.ts\b|https?:\/\//.test(v))
            outside.push(`${at}/${k}: ${v}`);
          walk(v, `${at}/${k}`);
        }
      }
    };
    walk(doc, '');
    expect(outside).toEqual([]);
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
  });

  it('answers every error as one problem per code, rendered from the error table: its type, title, status and the extras it always carries', () => {
    const schemas = doc.components?.schemas as Record<string, { properties: Record<string, { const?: unknown }>; required: string[] }>;
    const problemRefs = new Set<string>();
    for (const item of Object.values(doc.paths ?? {})) {
      for (const op of Object.values(item) as { responses: Record<string, { content?: Record<string, { schema: unknown }>; $ref?: string }> }[]) {
        for (const [status, res] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const response = (res.$ref ? doc.components?.responses?.[res.$ref.split('/').pop()!] : res) as { content?: Record<string, { schema: unknown }> };
          expect(Object.keys(response.content ?? {})).toEqual(['application/problem+json']);
          const schema = response.content!['application/problem+json']!.schema as { $ref?: string; oneOf?: { $ref: string }[] };
          for (const { $ref } of schema.oneOf ?? [schema]) problemRefs.add($ref!.split('/').pop()!);
        }
      }
    }
    expect(problemRefs.size).toBeGreaterThan(20);
    for (const name of problemRefs) {
      const schema = schemas[name]!;
      const code = schema.properties.code!.const as ErrorCode;
      expect(name).toBe(`${code.replace(/(^|_)([a-z])/g, (_, __: string, c: string) => c.toUpperCase())}Problem`);
      expect(schema.properties.type!.const).toBe(`/problems/${code}`);
      expect(schema.properties.status!.const).toBe(errorTable[code].status);
      expect(schema.required.sort()).toEqual(['code', 'detail', 'status', 'title', 'type', ...problemExtrasOf(code)].sort());
    }
  });
});

describe('live answers match the documented response schemas', () => {
  let keys: Record<string, string>;

  beforeAll(async () => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
    await buildScene(tdb.db, new Date());
    keys = await issueKeys(tdb.db, Object.values(ORG));
  });

  async function check(method: 'GET' | 'POST', template: string, params: Record<string, string>, opts: { key: string; body?: unknown; status?: number }) {
    const route = restRoutes.find((r) => r.path === template && r.method === method);
    expect(route, `${method} ${template} is documented`).toBeDefined();
    const file = path.join(
      appV1,
      ...template
        .replace(/^\/v1\//, '')
        .split('/')
        .map((s) => s.replace(/^\{(\w+)\}$/, '[$1]')),
      'route.ts',
    );
    const mod = (await import(file)) as RouteModule;
    const urlPath = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
    const res = await callRoute(mod[method]!, { method, path: urlPath, params, key: opts.key, body: opts.body });
    const status = opts.status ?? route!.status ?? 200;
    expect(res.status, res.text).toBe(status);
    const schema: z.ZodType = status < 400 ? route!.response : Problem;
    const parsed = schema.safeParse(res.json);
    expect(parsed.success, parsed.success ? '' : `${method} ${urlPath}: ${parsed.error.message}`).toBe(true);
    return res.json;
  }

  it('nodes, reservations, reclaim (dry and real), VMs, audit, notifications, API keys and problems', async () => {
    const operator = keys[ORG.platform]!;
    const reservation = { nodeId: 'n1', id: 'r1' };
    await check('GET', '/v1/nodes', {}, { key: operator });
    await check('GET', '/v1/nodes/{nodeId}', { nodeId: 'n1' }, { key: operator });
    await check('GET', '/v1/nodes/{nodeId}/reservations', { nodeId: 'n1' }, { key: operator });
    await check('GET', '/v1/nodes/{nodeId}/reservations/{id}', reservation, { key: operator });
    const dry = await check('POST', '/v1/nodes/{nodeId}/reservations/{id}/reclaim', reservation, {
      key: operator,
      body: { unitIds: ['gpu-0', 'gpu-4'], dryRun: true },
    });
    expect(dry).toHaveProperty('wouldTerminate');
    const real = await check('POST', '/v1/nodes/{nodeId}/reservations/{id}/reclaim', reservation, {
      key: operator,
      body: { unitIds: ['gpu-0', 'gpu-4'], reason: 'maintenance' },
    });
    expect(real).toHaveProperty('terminated');
    await check('GET', '/v1/vms', {}, { key: operator });
    await check('GET', '/v1/vms/{id}', { id: 'vm-spot-a' }, { key: operator });
    await check('GET', '/v1/audit', {}, { key: operator });
    const notes = (await check('GET', '/v1/notifications', {}, { key: keys[ORG.tenantA]! })) as { items: { id: string }[] };
    await check('POST', '/v1/notifications/{id}/read', { id: notes.items[0]!.id }, { key: keys[ORG.tenantA]!, body: {} });
    const created = (await check('POST', '/v1/api-keys', {}, { key: operator, body: { name: 'doc' } })) as { id: string };
    await check('GET', '/v1/api-keys', {}, { key: operator });
    await check('POST', '/v1/api-keys/{id}/revoke', { id: created.id }, { key: operator, body: {} });
    const conflict = await check('POST', '/v1/nodes/{nodeId}/reservations/{id}/reclaim', reservation, {
      key: operator,
      body: { unitIds: ['gpu-2'], expectedTerminate: ['vm-nope'] },
      status: 409,
    });
    expect(conflict).toMatchObject({ code: 'eviction_set_changed', terminate: ['vm-spot-b'] });
    await check('GET', '/v1/nodes/{nodeId}', { nodeId: 'nope' }, { key: operator, status: 404 });
    await check('POST', '/v1/nodes/{nodeId}/reservations/{id}/reclaim', reservation, { key: operator, body: { unitIds: [] }, status: 400 });
  });
});
