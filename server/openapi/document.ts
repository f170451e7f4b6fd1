/**
 * The OpenAPI 3.1 document of the public REST API (docs/product.md §5), rendered by zod-openapi
 * from the route table (server/rest/routes.ts): the zod schemas the routes validate requests
 * with (field descriptions in their `.meta()`) and the response schemas of ./schemas. The table
 * is handed in, not imported: the table serves this document (`GET /v1/openapi.json`), and a
 * module it loads must not import it back (server/import-cycles.test.ts).
 */
import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { errorTable, problemHeadersOf, type ErrorCode } from '../errors';
import { IdempotencyKey } from '../rest/route';
import { MAX_EXPORT_DAYS } from '../exports/window';
import type { RestExample } from '../operation';
import type { RouteSpec } from '../rest/route-spec';
import operationExamples from './examples.json';
import { problemSchemaOf } from './schemas';

type ZodObjectSchema = z.ZodObject<z.ZodRawShape>;

// Parameters are rendered one per field, from schemas shared between routes, so their
// descriptions are added to the rendered document instead.
const parameterDocs: Record<string, string> = {
  'path.nodeId': "The node's id.",
  'path.id': "The reservation's id.",
  'path.id@/v1/vms': "The VM's id.",
  'path.id@/v1/api-keys': "The API key's id.",
  'path.id@/v1/notifications': "The notification's id.",
  'query.limit': 'Page size: 1–500 (default 100).',
  'query.cursor': 'The `nextCursor` of the previous page, unchanged; a malformed one is 400.',
  'query.ownerOrgId': 'Only nodes this org owns.',
  'query.nodeId': 'Only those on this node.',
  'query.reservationId': 'Only events of this reservation.',
  'query.action': 'Only events of this action.',
  'query.since': 'Only events at or after this time.',
  'query.until': 'Only events before this time.',
  'query.status': 'Only VMs in this status.',
  'query.tier': 'Only VMs of this tier.',
};

function describeParameters(doc: oas31.OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      for (const p of item[method]?.parameters ?? []) {
        if ('$ref' in p || p.description) continue;
        const key = `${p.in}.${p.name}`;
        const description = parameterDocs[`${key}@${path.split('/').slice(0, 3).join('/')}`] ?? parameterDocs[key];
        if (description) p.description = description;
      }
    }
  }
}

const IdempotencyKeyHeader = IdempotencyKey.optional().meta({
  description:
    'Makes the request safe to retry: the answer of the first request with this key (scoped to acting org, method and path) is replayed byte for byte for 24 h. The same key with a different body is 422 idempotency_key_reused; a duplicate while the first is in flight is 409 idempotency_in_progress.',
  param: { id: 'IdempotencyKey' },
});

const statusNames: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Each header a problem always carries (its row's `headers`), as the document states it. */
const problemHeaderSchemas: Record<string, z.ZodType> = {
  'WWW-Authenticate': z.string().meta({ description: 'The scheme to authenticate with: `Bearer`.' }),
  Allow: z.string().meta({ description: 'The methods the path answers, e.g. `GET, HEAD, OPTIONS`.' }),
  'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying.' }),
};

type ProblemSchema = ReturnType<typeof problemSchemaOf>;
const problemSchemas = new Map<ErrorCode, ProblemSchema>();
/** The schema of one code's problem (`<Code>Problem`), built once so that every operation references the same component. */
function problemSchema(code: ErrorCode): ProblemSchema {
  let s = problemSchemas.get(code);
  if (!s) problemSchemas.set(code, (s = problemSchemaOf(code)));
  return s;
}

function problemHeaders(codes: readonly ErrorCode[]) {
  const names = [...new Set(codes.flatMap((c) => problemHeadersOf(c)))];
  return names.length > 0 ? { headers: z.object(Object.fromEntries(names.map((h) => [h, problemHeaderSchemas[h]!]))) } : {};
}

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __: string, c: string) => c.toUpperCase());

type SharedResponses = Record<string, ZodOpenApiResponseObject>;

/** A status one code answers: one shared response per code (components.responses), referenced by every operation that answers it. */
function sharedResponse(sharedResponses: SharedResponses, code: ErrorCode): { $ref: string } {
  const name = pascal(code);
  sharedResponses[name] ??= {
    description: `${statusNames[errorTable[code].status] ?? 'Error'} (\`code\` ${code}): ${errorTable[code].description}`,
    ...problemHeaders([code]),
    content: { 'application/problem+json': { schema: problemSchema(code) } },
  };
  return { $ref: `#/components/responses/${name}` };
}

/** Every mutation takes an Idempotency-Key but one whose answer must not be stored (server/rest/route.ts). */
const takesIdempotencyKey = (r: RouteSpec) => r.method !== 'GET' && r.idempotency !== 'refused';

/**
 * Every problem code an operation can answer: its verb's (the declaration's `errors`) and those
 * its pipeline adds (server/rest/route.ts) — 400 for a query or body it refuses, 406 for an
 * `Accept` it cannot give, 500 for a bug, and where they apply 401, 429 and 503 (credentials,
 * the rate limit, the database behind them), 403 `insufficient_scope` (an operation's scope), 404 (a path parameter that is no id), 405 (a
 * method the path does not answer), 413 and 415 (a body), and the `Idempotency-Key`'s 409 and,
 * where the body has fields to differ, its 422. The document lists exactly these per operation
 * (docs/product.md §5 Errors); server/openapi/problem-codes.test.ts
 * produces each one and fails on an answer with any other.
 * @returns the codes, sorted by status then name.
 */
export function operationErrorCodes(r: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(['invalid_request', 'not_acceptable', 'internal_error', 'method_not_allowed', ...r.errors]);
  if (r.auth !== 'none') codes.add('unauthenticated').add('rate_limited').add('service_unavailable');
  // A key without the operation's scope, or a role that does not allow it (docs/product.md §2), before the body is read.
  if (r.scope) codes.add('insufficient_scope');
  if (r.params) codes.add('not_found');
  if (r.body) codes.add('payload_too_large').add('unsupported_media_type');
  if (takesIdempotencyKey(r)) codes.add('idempotency_in_progress');
  // Reused means another body under the same key: a route whose body has no field has no other.
  if (takesIdempotencyKey(r) && Object.keys(r.body?.shape ?? {}).length > 0) codes.add('idempotency_key_reused');
  return [...codes].sort((a, b) => errorTable[a].status - errorTable[b].status || (a < b ? -1 : 1));
}

/** The problem+json responses of one route: one per status, naming exactly the codes it can answer there. */
function errorResponses(r: RouteSpec, shared: SharedResponses): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrorCodes(r)) {
    const status = errorTable[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<`${4 | 5}${string}`, ZodOpenApiResponsesObject[`4${string}`]> = {};
  for (const [status, codes] of byStatus) {
    out[`${status}` as `4${string}`] =
      codes.length === 1
        ? sharedResponse(shared, codes[0]!)
        : {
            description: `${statusNames[status] ?? 'Error'}: one of ${codes.map((c) => `\`${c}\``).join(', ')}, told apart by \`code\`; each one's schema says when it is answered and what it carries.`,
            ...problemHeaders(codes),
            content: {
              'application/problem+json': {
                schema: z.discriminatedUnion('code', codes.map((c) => problemSchema(c)) as [ProblemSchema, ...ProblemSchema[]]),
              },
            },
          };
  }
  return out;
}

/** What every export's media types say beside their format (docs/product.md §5.8). */
function exportRules(window: string): string {
  return `Needs \`since\` and \`until\`, at most ${MAX_EXPORT_DAYS} days apart (400 naming the field), and takes no \`cursor\` or \`limit\`: ${window}. Streamed page by page, \`Content-Disposition: attachment\`. CSV cells beginning with =, +, -, @, tab or CR get a leading '; arrays are joined with a space, objects written as JSON, times ISO 8601 UTC.`;
}

/**
 * A path's or query's parameters, each with its value in the operation's example request (an
 * `example` beside its schema, where the document's readers and linters look for it).
 */
function withExamples(shape: ZodObjectSchema, values: Record<string, unknown> | undefined): ZodObjectSchema {
  if (!values) return shape;
  const fields = Object.fromEntries(
    Object.entries(shape.shape as Record<string, z.ZodType>).map(([k, v]) => [k, k in values ? v.meta({ ...(v.meta() ?? {}), example: values[k] }) : v]),
  );
  return z.strictObject(fields);
}

/** The media type's example(s): one as `example`, several as named `examples`. */
function exampleOf(named: Record<string, RestExample<unknown>>, part: 'body' | 'response') {
  const entries = Object.entries(named).filter(([, e]) => e[part] !== undefined);
  if (entries.length === 0) return {};
  if (entries.length === 1) return { example: entries[0]![1][part] };
  return { examples: Object.fromEntries(entries.map(([name, e]) => [name, { summary: exampleSummaries[name] ?? name, value: e[part] }])) };
}

const exampleSummaries: Record<string, string> = { dryRun: 'A dry run: what the reclaim would terminate', reclaim: 'The reclaim of what the dry run showed' };

function operation(r: RouteSpec, shared: SharedResponses): ZodOpenApiOperationObject {
  const named = (operationExamples as Record<string, Record<string, RestExample<unknown>>>)[r.operationId] ?? {};
  const example = Object.values(named)[0];
  const idempotent = takesIdempotencyKey(r);
  const replayedHeader = z.object({
    'Idempotent-Replayed': z
      .literal('true')
      .optional()
      .meta({ description: 'Present when this answer is the stored answer of an earlier request with the same Idempotency-Key.' }),
  });
  return {
    operationId: r.operationId,
    tags: [r.tag],
    summary: r.summary,
    // The scope is stated by the security requirement and `x-scope`, not in the description: the
    // reclaim's description is the published contract's, verbatim.
    ...(r.description ? { description: r.description } : {}),
    // The scope the key needs, per operation (docs/product.md §2): in the security requirement, and
    // as `x-scope` for readers that skip scopes on an http scheme.
    ...(r.auth === 'none' ? { security: [] } : r.scope ? { security: [{ bearerAuth: [r.scope] }], 'x-scope': r.scope } : {}),
    requestParams: {
      ...(r.params ? { path: withExamples(r.params, example?.params) } : {}),
      ...(r.query ? { query: withExamples(r.query, example?.query) } : {}),
      ...(idempotent ? { header: z.object({ 'Idempotency-Key': IdempotencyKeyHeader }) } : {}),
    },
    ...(r.body
      ? {
          requestBody: {
            // An empty body reads as `{}` (server/rest/route.ts), so a body is required exactly
            // when `{}` would not validate.
            required: !r.body.safeParse({}).success,
            content: { 'application/json': { schema: r.body, ...exampleOf(named, 'body') } },
          },
        }
      : {}),
    responses: {
      [`${r.status ?? 200}`]: {
        description: r.responseDescription,
        ...(idempotent ? { headers: replayedHeader } : {}),
        content: {
          'application/json': { schema: r.response, ...exampleOf(named, 'response') },
          // A list's export (docs/product.md §5.8): the same rows, streamed as a file.
          ...(r.export
            ? {
                'text/csv': {
                  schema: {
                    type: 'string',
                    description: `CSV (RFC 4180), header row: ${r.export.columns.map((c) => c.name).join(',')}. ${exportRules(r.export.window)}`,
                  },
                },
                'application/x-ndjson': {
                  schema: { type: 'string', description: `One JSON object per line, each an item of the JSON list. ${exportRules(r.export.window)}` },
                },
              }
            : {}),
        },
      },
      ...errorResponses(r, shared),
    },
  };
}

/**
 * Builds the OpenAPI 3.1 document of every /v1 route from the zod schemas the routes
 * validate with and the response schemas of ./schemas (docs/product.md §5: "An OpenAPI 3.1 document of
 * every route is served at /v1/openapi.json").
 * @param routes the route table (`restRoutes` of server/rest/routes.ts).
 * @returns a plain JSON-serialisable OpenAPI object; build it once and cache it.
 * @throws Error when the table declares one method of a path twice.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[]): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  const shared: SharedResponses = {};
  for (const r of routes) {
    const item = (paths[r.path] ??= {});
    const method = r.method.toLowerCase() as Lowercase<RouteSpec['method']>;
    if (item[method]) throw new Error(`Duplicate route ${r.method} ${r.path}`);
    item[method] = operation(r, shared);
  }
  const doc = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'GPU Reservations API',
      version: '1.1.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: [
        'Reserve GPU units of nodes for an audience of orgs, release them to the spot market, and reclaim them.',
        '**Authentication.** JSON over HTTPS. Every route but `GET /v1/openapi.json` needs `Authorization: Bearer <api key>`.',
        '**Requests.** Bodies are `application/json` in UTF-8, at most 64 KiB; an empty body reads as `{}`. Unknown body fields, unknown or repeated query parameters, a key given twice in one JSON object, and a body field or query parameter that repeats a path parameter are 400. Every limit a field has is in its schema; free text counts Unicode code points and refuses NUL and lone surrogates; timestamps are ISO 8601 UTC (`Z`) from 1970 on. In answers, unit id lists follow the node’s unit order and other id lists are sorted by code point; optional strings that are unset are absent, never null.',
        '**Errors.** Every error is RFC 9457 `application/problem+json`. Its `code` names it and its `type` is `/problems/{code}`, a page of this site that says what the code means (relative to where this document is served, so the same on every deployment). Each operation lists, per status, exactly the codes it can answer, and each code’s schema the extra fields it always carries. Checks run in this order, the first failure answering: 401, 429, 400, 404, 403, 409 for the resource’s own state, 422, then 409 for conflicts with other resources.',
        '**Methods.** A path answers the methods documented for it; any other is 405 with `Allow`. `HEAD` answers wherever `GET` does, with the status and headers `GET` would answer and no body; `OPTIONS` answers 204 with `Allow`. An unknown path under `/v1` is 404 `not_found`.',
        '**Idempotency.** Every POST, PUT, PATCH and DELETE accepts an `Idempotency-Key` header, but creating an API key or a webhook endpoint and rotating a webhook secret: their answers hold a secret that is shown once and never stored, so the header is 400 there.',
        '**Scopes.** Each API key holds scopes fixed at its creation (`read`, `reservations:write`, `vms:write`, `keys:manage`); each operation names the one it needs (`x-scope`, and its security requirement). A call outside the key’s scopes is 403 `insufficient_scope` with `scope`, checked right after authentication and the rate limit, before the body.',
        '**Rate limits.** Each API key has its requests per minute, and all of an org’s keys share one more budget; past either, 429 with `Retry-After`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This deployment.' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Nodes', description: 'GPU nodes and their units.' },
      { name: 'Reservations', description: 'Reservations of units, the spot market, reclaim.' },
      { name: 'Utilisation', description: 'GPU-hours held, idle, released and used, from the record of unit intervals.' },
      { name: 'VMs', description: 'Workloads on units.' },
      { name: 'Audit', description: 'The audit trail and notifications.' },
      { name: 'Events', description: "The acting org's typed events, in commit order." },
      { name: 'Webhooks', description: "The acting org's webhook endpoints: its events delivered, signed (Standard Webhooks)." },
      { name: 'Orgs', description: 'Finding orgs to reserve units for.' },
      { name: 'API keys', description: "The acting org's API keys." },
      { name: 'Meta', description: 'This document.' },
    ],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <key>`.' } },
      responses: shared,
    },
  });
  describeParameters(doc);
  return doc;
}

const cached = new WeakMap<readonly RouteSpec[], oas31.OpenAPIObject>();

/**
 * The document `GET /v1/openapi.json` serves (docs/product.md §5): built on first use, once per
 * process (it depends only on code).
 * @param routes the route table, as for `buildOpenApiDocument`.
 */
export function getOpenApiDocument(routes: readonly RouteSpec[]): oas31.OpenAPIObject {
  let doc = cached.get(routes);
  if (!doc) cached.set(routes, (doc = buildOpenApiDocument(routes)));
  return doc;
}
