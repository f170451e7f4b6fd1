/**
 * The OpenAPI 3.1 document of the public REST API (docs/product.md §5), rendered by zod-openapi
 * from the route table (server/rest/routes.ts): the zod schemas the routes validate requests
 * with (field descriptions in their `.meta()`) and the response schemas of ./schemas. The table
 * is handed in, not imported: the table serves this document (`GET /v1/openapi.json`), and a
 * module it loads must not import it back (server/import-cycles.test.ts).
 */
import { z } from 'zod';
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { errorTable, type ErrorCode } from '../errors';
import { IdempotencyKey } from '../rest/route';
import { MAX_EXPORT_DAYS } from '../exports/window';
import type { RouteSpec } from '../rest/route-spec';
import { Problem } from './schemas';

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

const problemContent = { 'application/problem+json': { schema: Problem } };

const statusNames: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Shared error responses, referenced by `$ref` from the operations (components.responses). */
const sharedResponses = {
  Unauthenticated: {
    description: 'Unauthorized (`code` unauthenticated): send a valid API key as `Authorization: Bearer <key>`.',
    headers: z.object({ 'WWW-Authenticate': z.string() }),
    content: problemContent,
  },
  MethodNotAllowed: {
    description:
      'Method Not Allowed (`code` method_not_allowed): answered to any method a path does not declare (the operations below are the declared ones); `Allow` lists those it answers.',
    headers: z.object({ Allow: z.string().meta({ description: 'e.g. `GET, HEAD, POST, OPTIONS`' }) }),
    content: problemContent,
  },
  PayloadTooLarge: { description: 'Content Too Large (`code` payload_too_large): bodies are at most 64 KiB.', content: problemContent },
  UnsupportedMediaType: {
    description: 'Unsupported Media Type (`code` unsupported_media_type): send the body as `application/json` in UTF-8, without Content-Encoding.',
    content: problemContent,
  },
  RateLimited: {
    description:
      'Too Many Requests (`code` rate_limited): this API key used its own requests for this minute (RATE_LIMIT_PER_MINUTE), or its org used those all its keys share (RATE_LIMIT_PER_ORG_PER_MINUTE); `detail` says which. Creating API keys also answers it once the org created its keys of the last minute (API_KEY_CREATIONS_PER_ORG_PER_MINUTE).',
    headers: z.object({ 'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying.' }) }),
    content: problemContent,
  },
  ServiceUnavailable: {
    description:
      'Service Unavailable (`code` service_unavailable): the database cannot be reached right now (never a bug). Retry after `Retry-After` seconds; a write retried with the same `Idempotency-Key` happens at most once.',
    headers: z.object({ 'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying.' }) }),
    content: problemContent,
  },
} as const;

const ref = (name: keyof typeof sharedResponses) => ({ $ref: `#/components/responses/${name}` });

/** Every mutation takes an Idempotency-Key but one whose answer must not be stored (server/rest/route.ts). */
const takesIdempotencyKey = (r: RouteSpec) => r.method !== 'GET' && r.idempotency !== 'refused';

/** The problem+json responses of one route: its verb's domain errors plus those its pipeline adds. */
function errorResponses(r: RouteSpec): ZodOpenApiResponsesObject {
  const codes = new Set<ErrorCode>(['invalid_request', ...r.errors]);
  // A key without the operation's scope (docs/product.md §2), before the body is read.
  if (r.scope) codes.add('insufficient_scope');
  if (takesIdempotencyKey(r)) codes.add('idempotency_in_progress').add('idempotency_key_reused');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorTable[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<`${4 | 5}${string}`, ZodOpenApiResponsesObject[`4${string}`]> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[`${status}` as `4${string}`] = { description: `${statusNames[status] ?? 'Error'} (\`code\` ${list.join(', ')}).`, content: problemContent };
  }
  if (r.auth !== 'none') {
    out['401'] = ref('Unauthenticated');
    out['429'] = ref('RateLimited');
    // Every route with credentials reads the database to check them.
    out['503'] = ref('ServiceUnavailable');
  }
  if (r.export)
    out['406'] = {
      description: 'Not Acceptable (`code` not_acceptable): Accept allows none of application/json, text/csv, application/x-ndjson.',
      content: problemContent,
    };
  if (r.body) {
    out['413'] = ref('PayloadTooLarge');
    out['415'] = ref('UnsupportedMediaType');
  }
  return out;
}

/** What every export's media types say beside their format (docs/product.md §5.8). */
function exportRules(window: string): string {
  return `Needs \`since\` and \`until\`, at most ${MAX_EXPORT_DAYS} days apart (400 naming the field), and takes no \`cursor\` or \`limit\`: ${window}. Streamed page by page, \`Content-Disposition: attachment\`. CSV cells beginning with =, +, -, @, tab or CR get a leading '; arrays are joined with a space, objects written as JSON, times ISO 8601 UTC.`;
}

function operation(r: RouteSpec): ZodOpenApiOperationObject {
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
    ...(r.description || r.scope
      ? {
          description: [r.description, r.scope ? `Needs an API key with the \`${r.scope}\` scope (else 403 \`insufficient_scope\`).` : '']
            .filter(Boolean)
            .join('\n\n'),
        }
      : {}),
    // The scope the key needs, per operation (docs/product.md §2): in the security requirement, and
    // as `x-scope` for readers that skip scopes on an http scheme.
    ...(r.auth === 'none' ? { security: [] } : r.scope ? { security: [{ bearerAuth: [r.scope] }], 'x-scope': r.scope } : {}),
    requestParams: {
      ...(r.params ? { path: r.params as ZodObjectSchema } : {}),
      ...(r.query ? { query: r.query as ZodObjectSchema } : {}),
      ...(idempotent ? { header: z.object({ 'Idempotency-Key': IdempotencyKeyHeader }) } : {}),
    },
    ...(r.body
      ? {
          requestBody: {
            // An empty body reads as `{}` (server/rest/route.ts), so a body is required exactly
            // when `{}` would not validate.
            required: !r.body.safeParse({}).success,
            content: { 'application/json': { schema: r.body, ...(r.example?.request ? { example: r.example.request } : {}) } },
          },
        }
      : {}),
    responses: {
      [`${r.status ?? 200}`]: {
        description: r.responseDescription,
        ...(idempotent ? { headers: replayedHeader } : {}),
        content: {
          'application/json': { schema: r.response, ...(r.example ? { example: r.example.response } : {}) },
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
      ...errorResponses(r),
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
  for (const r of routes) {
    const item = (paths[r.path] ??= {});
    const method = r.method.toLowerCase() as Lowercase<RouteSpec['method']>;
    if (item[method]) throw new Error(`Duplicate route ${r.method} ${r.path}`);
    item[method] = operation(r);
  }
  const doc = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'GPU Reservations API',
      version: '1.0.0',
      description: [
        'Reserve GPU units of nodes for an audience of orgs, release them to the spot market, and reclaim them (docs/product.md §5).',
        'JSON over HTTPS; every route but `GET /v1/openapi.json` needs `Authorization: Bearer <api key>`.',
        'Every error is RFC 9457 `application/problem+json` (the `Problem` schema). Unknown fields and query parameters are 400.',
        'Unknown paths under /v1 are 404; a method a path does not declare is 405 with `Allow` (components.responses.MethodNotAllowed).',
        'Each API key holds scopes fixed at its creation (`read`, `reservations:write`, `vms:write`, `keys:manage`); each operation names the one it needs (`x-scope`, and its security requirement). A call outside the key’s scopes is 403 `insufficient_scope` with `scope`, checked right after authentication and the rate limit, before the body.',
        'Every mutating POST/PUT/PATCH accepts an `Idempotency-Key` header, but `POST /v1/api-keys`: its answer holds a secret shown once and never stored.',
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
      responses: sharedResponses,
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
