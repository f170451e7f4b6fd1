/**
 * The document states every limit the server enforces (docs/product.md §5), and the server
 * agrees with it: generated from the OpenAPI document, this sends, for every query parameter,
 * body field (one level into arrays of objects) and Idempotency-Key of every route, one request
 * at each documented limit and one past it — lengths, ranges, item counts, uniqueness, patterns,
 * enums, the conditional requirements — each the route's valid base (server/testing/rest-bases.ts)
 * with that one field changed. The document decides (Ajv on the request part, as a client's
 * validator would) whether the request is valid; the server must agree: 400 `invalid_request`
 * naming that part for what the document refuses, anything else for what it allows. So a limit the
 * server enforces and the document lacks fails here (the value at the documented limit, or a long
 * value where the document sets none, is refused), and so does one the document states and the
 * server does not enforce. A schema keyword or pattern this test cannot probe fails it too.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { reclaim } from '../reservations/reclaim';
import { eventTypes } from '../events/catalog';
import { buildOpenApiDocument } from '../openapi/document';
import { bases, type Base } from '../testing/rest-bases';
import { useHostileScene } from '../testing/hostile-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ORG, ctxFor } from '../testing/scene';
import type { RouteSpec } from './route-spec';
import { routeHandlers, restRoutes } from './routes';

type Schema = {
  type?: string | string[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  anyOf?: Schema[];
  if?: { properties: Record<string, { const: unknown }> };
  then?: unknown;
  else?: unknown;
  description?: string;
};
type Probe = { label: string; value: unknown; remove?: boolean; companions?: Record<string, unknown> };

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(restRoutes))) as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema: Schema; $ref?: string }[];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components: { parameters: Record<string, { in: string; name: string; required?: boolean; schema: Schema }> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

// Keywords every probe generator below reads; any other constraint in a request schema fails the
// test until it is probed (the point: a limit nobody checks is a limit that can drift).
const probed = new Set([
  'type',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
  'items',
  'allOf',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'example',
  'examples',
  'x-extension',
  'if',
  'then',
  'else',
  'const',
]);

const FLOOR = '1970-01-01T00:00:00.000Z';
const BEFORE_FLOOR = '1969-12-31T23:59:59.999Z';
const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';
const NO_NUL = '^[^\\u0000]*$';
const NON_BLANK = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** Event type names, comma-separated, exactly `length` characters long (the `types` filter at its limit). */
function typesOfLength(length: number): string {
  const names = [...eventTypes].sort((a, b) => b.length - a.length);
  let out = '';
  while (out.length < length) {
    const room = length - out.length - (out ? 1 : 0);
    const name = names.find((n) => n.length === room) ?? names.find((n) => n.length <= room - 10) ?? names.findLast((n) => n.length <= room);
    if (!name) throw new Error(`no event types make ${length} characters`);
    out += (out ? ',' : '') + name;
  }
  return out;
}

/** A string of `length` characters that fits `s`'s pattern and format. */
function stringOf(s: Schema, length: number): string {
  if (s.format === 'uri') return `https://hooks.example.com/${'a'.repeat(length - 'https://hooks.example.com/'.length)}`;
  if (s.pattern?.startsWith('^(?:node\\.registered')) return typesOfLength(length);
  return 'x'.repeat(length);
}

/** Each pattern a request field has, and a value it allows and values it refuses. */
const patternProbes: Record<string, Probe[]> = {
  [ID_PATTERN]: [
    { label: 'an id of 128 characters', value: 'a'.repeat(128) },
    { label: 'an id of 129 characters', value: 'a'.repeat(129) },
    { label: 'an id starting with "-"', value: '-a' },
  ],
  [NO_NUL]: [
    { label: 'text', value: 'text' },
    { label: 'text with NUL', value: 'a\u0000b' },
  ],
  [NON_BLANK]: [
    { label: 'one character', value: 'x' },
    { label: 'white space only', value: '   ' },
    { label: 'text with NUL', value: 'a\u0000b' },
  ],
};

/** The probes of one field's schema: a value at each limit it documents and one past it. */
function probesOf(s: Schema, where: string, name: string, base: unknown): Probe[] {
  const unknown = Object.keys(s).filter((k) => !probed.has(k));
  if (unknown.length > 0) throw new Error(`${where}: no probes for ${unknown.join(', ')}`);
  const inner = s.anyOf?.find((x) => x.type !== 'null') ?? s;
  const type = Array.isArray(inner.type) ? inner.type[0] : inner.type;
  const out: Probe[] = [];
  if (inner.enum)
    out.push({ label: 'each value', value: inner.enum[0] }, ...inner.enum.slice(1).map((v) => ({ label: `value ${String(v)}`, value: v })), {
      label: 'another value',
      value: 'not-one-of-them',
    });
  if (type === 'string' && !inner.enum) {
    if (inner.format === 'date-time')
      out.push({ label: 'the 1970 floor', value: FLOOR }, { label: 'before 1970', value: BEFORE_FLOOR }, { label: 'no time', value: 'tomorrow' });
    else if (inner.pattern && !inner.pattern.startsWith('^(?:node\\.registered')) {
      const known = patternProbes[inner.pattern];
      if (!known) throw new Error(`${where}: no probes for pattern ${inner.pattern}`);
      out.push(...known);
    } else if (inner.pattern) out.push({ label: 'a known type', value: eventTypes[0] }, { label: 'an unknown type', value: 'nope.nope' });
    if (inner.maxLength !== undefined)
      out.push(
        { label: `${inner.maxLength} characters`, value: stringOf(inner, inner.maxLength) },
        { label: `${inner.maxLength + 1} characters`, value: stringOf(inner, inner.maxLength + 1) },
      );
    else if (!inner.pattern && !inner.format && !opaque.has(name)) out.push({ label: 'a long text (no limit documented)', value: 'x'.repeat(20_000) });
    if (inner.minLength !== undefined)
      out.push(
        { label: `${inner.minLength} characters`, value: stringOf(inner, inner.minLength) },
        { label: `${inner.minLength - 1} characters`, value: stringOf(inner, Math.max(0, inner.minLength - 1)) },
      );
    // An opaque cursor is a value this API handed out: no other is at its limit.
    if (opaque.has(name)) return out.filter((p) => !/^\d+ characters$/.test(p.label) || p.label === `${inner.maxLength! + 1} characters`);
  }
  if (type === 'integer') {
    const min = inner.minimum ?? 0;
    out.push({ label: `minimum ${min}`, value: min }, { label: `below ${min}`, value: min - 1 }, { label: 'not whole', value: min + 0.5 });
    if (inner.maximum !== undefined)
      out.push({ label: `maximum ${inner.maximum}`, value: inner.maximum }, { label: `above ${inner.maximum}`, value: inner.maximum + 1 });
  }
  if (type === 'array') {
    const item = (i: number) => itemOf(inner.items!, base, i);
    const count = (n: number) => Array.from({ length: n }, (_, i) => item(i));
    if (inner.maxItems !== undefined)
      out.push({ label: `${inner.maxItems} items`, value: count(inner.maxItems) }, { label: `${inner.maxItems + 1} items`, value: count(inner.maxItems + 1) });
    else out.push({ label: '2000 items (no limit documented)', value: count(2000) });
    const min = inner.minItems ?? 0;
    out.push({ label: `${min} items`, value: count(min) });
    if (min > 0) out.push({ label: `${min - 1} items`, value: count(min - 1) });
    if (inner.uniqueItems) out.push({ label: 'an item twice', value: [item(0), item(0)] });
  }
  return out;
}

/** Fields whose values only this API hands out (cursors): a made-up one is refused whatever its length. */
const opaque = new Set(['cursor', 'after']);

/** The `i`th of distinct valid items of an array field. */
function itemOf(s: Schema, base: unknown, i: number): unknown {
  if (s.enum) return s.enum[i % s.enum.length];
  if (s.type === 'object') return { ...((Array.isArray(base) ? base[0] : {}) as object), id: `gpu-${i}` };
  return `u-${i}`;
}

/**
 * Pairs whose second member must be after the first (the second's description says so): at the
 * floor, the first is the floor and the second one millisecond later, whichever is probed.
 */
const pairs: [string, string][] = [
  ['from', 'to'],
  ['since', 'until'],
  ['startsAt', 'endsAt'],
];
const JUST_AFTER_FLOOR = '1970-01-01T00:00:00.001Z';
function withPartner(name: string, probe: Probe): Probe {
  if (probe.value !== FLOOR) return probe;
  const pair = pairs.find((p) => p.includes(name));
  if (!pair) return probe;
  if (name === pair[0]) return { ...probe, companions: { [pair[1]]: JUST_AFTER_FLOOR } };
  return { label: `just after the 1970 floor, its ${pair[0]} at the floor`, value: JUST_AFTER_FLOOR, companions: { [pair[0]]: FLOOR } };
}

let keys: Record<string, string>;
useHostileScene(async (db) => {
  keys = await issueKeys(db, Object.values(ORG));
  // An event for the owner, so that the feed's `wait` at its limit answers at once.
  await reclaim({ ctx: ctxFor(db, ORG.owner, new Date()), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] } });
});

const validators = new Map<string, ValidateFunction>();
function documentAllows(key: string, schema: object, value: unknown): boolean {
  let v = validators.get(key);
  if (!v) validators.set(key, (v = ajv.compile(schema)));
  return v(value);
}

type Sent = { status: number; refused: boolean; text: string };
async function send(
  r: RouteSpec,
  base: Base,
  part: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> },
  refusedIn: string,
): Promise<Sent> {
  const path = r.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(base.params![p]!));
  const query = part.query ? `?${new URLSearchParams(Object.entries(part.query).map(([k, v]) => [k, String(v)]))}` : '';
  const res = await callRoute(routeHandlers(r.path)[r.method as 'GET'], {
    method: r.method,
    path: path + query,
    params: base.params,
    ...(base.as ? { key: keys[ORG[base.as]] } : {}),
    ...(part.body !== undefined ? { body: part.body } : {}),
    headers: { ...base.headers, ...part.headers },
  });
  const errors = (res.json?.errors ?? []) as { path: string }[];
  return { status: res.status, refused: res.status === 400 && errors.some((e) => e.path.startsWith(refusedIn)), text: res.text.slice(0, 300) };
}

describe('every documented limit of a request, at the limit and past it', () => {
  for (const r of restRoutes) {
    it(`${r.method} ${r.path}`, { timeout: 120_000 }, async () => {
      const base = bases[(r.id ?? r.operationId) as keyof typeof bases]!;
      expect(base, 'a base request (server/testing/rest-bases.ts)').toBeDefined();
      const op = doc.paths[r.path]![r.method.toLowerCase()]!;
      const mismatches: string[] = [];
      const check = (label: string, allowed: boolean, sent: Sent) => {
        if (allowed === sent.refused)
          mismatches.push(`${label}: the document ${allowed ? 'allows' : 'refuses'} it, the server answered ${sent.status} ${sent.text}`);
      };
      // The query: each parameter at its limits, validated as the object of the query's parameters.
      const params = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p));
      const queryParams = params.filter((p) => p.in === 'query');
      const querySchema = {
        type: 'object',
        properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
        required: queryParams.filter((p) => p.required).map((p) => p.name),
      };
      for (const p of queryParams) {
        for (const probe of probesOf(p.schema, `${r.method} ${r.path} query.${p.name}`, p.name, undefined).map((x) => withPartner(p.name, x))) {
          const typed = { ...typedQuery(base.query ?? {}, querySchema), ...probe.companions, [p.name]: probe.value };
          const allowed = documentAllows(`${r.operationId}:query`, querySchema, typed);
          check(`query.${p.name} ${probe.label}`, allowed, await send(r, base, { query: typed }, 'query.'));
        }
      }
      // The body: each field at its limits (one level into arrays of objects), and the conditions between fields.
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      if (bodySchema) {
        const baseBody = (base.body ?? {}) as Record<string, unknown>;
        for (const [name, s] of Object.entries(bodySchema.properties ?? {})) {
          for (const probe of probesOf(s, `${r.method} ${r.path} body.${name}`, name, baseBody[name]).map((x) => withPartner(name, x))) {
            const body = { ...baseBody, ...probe.companions, [name]: probe.value };
            check(`body.${name} ${probe.label}`, documentAllows(`${r.operationId}:body`, bodySchema, body), await send(r, base, { body }, 'body.'));
          }
          const items = s.items;
          if (items?.type === 'object' && Array.isArray(baseBody[name])) {
            for (const [field, fs] of Object.entries(items.properties ?? {})) {
              for (const probe of probesOf(fs, `${r.method} ${r.path} body.${name}[].${field}`, field, undefined)) {
                const list = [...(baseBody[name] as Record<string, unknown>[])];
                list[0] = { ...list[0], [field]: probe.value };
                const body = { ...baseBody, [name]: list };
                check(
                  `body.${name}.0.${field} ${probe.label}`,
                  documentAllows(`${r.operationId}:body`, bodySchema, body),
                  await send(r, base, { body }, 'body.'),
                );
              }
            }
          }
        }
        // A field required, or refused, by another's value (`if`/`then`/`else`): each value of that other field, with and without it.
        if (bodySchema.if) {
          const [cond, { const: value }] = Object.entries(bodySchema.if.properties)[0]!;
          const dependent = ((bodySchema.then as { required: string[] }).required ?? [])[0]!;
          const others = (bodySchema.properties![cond]!.enum ?? []).filter((v) => v !== value);
          for (const v of [value, ...others]) {
            for (const withIt of [true, false]) {
              const body: Record<string, unknown> = { ...baseBody, [cond]: v };
              if (withIt) body[dependent] ??= 'r1';
              else delete body[dependent];
              check(
                `body.${cond}=${String(v)} ${withIt ? 'with' : 'without'} ${dependent}`,
                documentAllows(`${r.operationId}:body`, bodySchema, body),
                await send(r, base, { body }, 'body.'),
              );
            }
          }
        }
      }
      // The Idempotency-Key, where the route takes one.
      const idem = params.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (idem && !base.headers?.['idempotency-key']) {
        const key = (n: number) => `${r.operationId}-${'k'.repeat(n)}`.slice(-n);
        for (const [label, value, allowed] of [
          ['255 characters', key(255), true],
          ['256 characters', key(256), false],
        ] as const) {
          expect(documentAllows('idempotency-key', idem.schema, value), label).toBe(allowed);
          check(
            `Idempotency-Key ${label}`,
            allowed,
            await send(r, base, { query: base.query, body: base.body, headers: { 'idempotency-key': value } }, 'header.'),
          );
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

/** The base's query values as the document types them (an integer's digits as the integer). */
function typedQuery(query: Record<string, string>, schema: { properties: Record<string, Schema> }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, schema.properties[k]?.type === 'integer' ? Number(v) : v]));
}
