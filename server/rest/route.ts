import { getDb, type DbOrTx } from '@/db/client';
import { z } from 'zod';
import { apiKeyRateLimited, authenticateApiKey } from '../api-keys/authenticate';
import { readClockOffsetMs, shifted } from '../clock';
import type { Ctx } from '../context';
import { DomainError, toServiceUnavailable } from '../errors';
import { readCappedBody } from '../http/body';
import { answerExport, exportFormatOf } from '../exports/answer';
import type { ExportableInput } from '../exports/window';
import { assertJsonMediaType, CSV_MEDIA_TYPE, JSON_MEDIA_TYPE, NDJSON_MEDIA_TYPE, negotiateMediaType } from '../http/media-type';
import { allowHeader, httpMethods, type DeclaredMethod, type HttpMethod } from '../http/methods';
import { internalErrorResponse, invalidRequest, jsonResponse, problemResponse, serviceUnavailableResponse } from '../http/problem';
import { assertMayCall } from '../policy';
import { requestFingerprint, runIdempotent, type StoredResponse } from './idempotency';
import { canonicalJson, parseRequestJson } from './json';
import type { RouteSpec } from './route-spec';

const mutating = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

const EmptyQuery = z.object({}).strict();
/** The `Idempotency-Key` header (docs/product.md §5 Idempotency: 1–255 characters). */
export const IdempotencyKey = z.string().min(1, 'must be 1–255 characters').max(255, 'must be 1–255 characters');

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type NextHandler = (req: Request, route: NextRouteContext) => Promise<Response>;

async function readBody(req: Request): Promise<string> {
  const bytes = await readCappedBody(req);
  // An empty body reads as `{}`: `POST …/cancel` needs none, and a missing required field is
  // a 400 that names it rather than a 415.
  if (bytes.byteLength === 0) return '{}';
  assertJsonMediaType(req.headers);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError('invalid_request', 'The request body is not valid UTF-8.', { errors: [{ path: 'body', message: 'is not valid UTF-8' }] });
  }
}

/**
 * The path an Idempotency-Key is scoped to: percent-decoded segments, no trailing slash, so
 * that `/v1/nodes/a%2Db/…` and `/v1/nodes/a-b/…/` name the same resource.
 */
function canonicalPath(pathname: string): string {
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return '/' + segments.join('/');
}

/** A URL's query as one object of strings; a parameter given twice is a 400 naming it. */
export function queryObject(url: URL): Record<string, string> {
  // No prototype: a parameter named `constructor` or `__proto__` is a name like any other
  // (refused as unknown by the schema), never one the object already "has".
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(out, k))
      throw new DomainError('invalid_request', `The query parameter "${k}" is given more than once.`, {
        errors: [{ path: `query.${k}`, message: 'is given more than once' }],
      });
    out[k] = v;
  }
  return out;
}

function methodNotAllowed(allow: string): Response {
  return problemResponse(new DomainError('method_not_allowed', `This route answers ${allow} only.`), { allow });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The verb's input from a request (server/rest/wire.ts): the path's parameters, each in the
 * input field it fills, merged with a GET's query or another method's body, parsed with the
 * verb's one schema. A query or body field that the path fills is refused (400), never merged.
 * @returns the parsed input, and the 404 to answer once the 400s and the Idempotency-Key are checked.
 */
function readInput(spec: RouteSpec, fields: unknown, path: Record<string, unknown>): { input: unknown; notFound: boolean } {
  const where = spec.method === 'GET' ? 'query' : 'body';
  if (!isRecord(fields)) {
    // Not an object: the body's own schema says so, as it did before the merge.
    const r = (spec.body ?? EmptyQuery).safeParse(fields);
    throw invalidRequest(where, r.success ? [] : r.error.issues);
  }
  const fromPath = new Map(Object.entries(spec.paramFields).map(([name, field]) => [field, name]));
  const taken = Object.keys(fields).filter((k) => fromPath.has(k) || Object.hasOwn(spec.paramFields, k));
  if (taken.length > 0) {
    throw new DomainError('invalid_request', `The request is invalid: ${where}.${taken[0]} is given by the path.`, {
      errors: taken.map((k) => ({ path: `${where}.${k}`, message: 'is given by the path' })),
    });
  }
  const merged: Record<string, unknown> = { ...fields };
  for (const [name, field] of Object.entries(spec.paramFields)) merged[field] = path[name];
  const parsed = spec.input.safeParse(merged);
  if (parsed.success) return { input: parsed.data, notFound: false };
  const ofPath = (i: z.core.$ZodIssue) => typeof i.path[0] === 'string' && fromPath.has(i.path[0]);
  const own = parsed.error.issues.filter((i) => !ofPath(i));
  if (own.length > 0) throw invalidRequest(where, own);
  // Only path parameters failed: no resource exists at this path (docs/product.md §5 Ids).
  return { input: undefined, notFound: true };
}

/**
 * A GET route's input from its query alone, read exactly as the route reads it: what the
 * console's download routes (server/exports/console-route.ts) parse an export's query with.
 * @throws DomainError invalid_request naming the query field.
 */
export function readQueryInput(spec: RouteSpec, query: Record<string, string>): unknown {
  return readInput(spec, query, {}).input;
}

function runMethod(spec: RouteSpec): NextHandler {
  return async (req, route) => {
    try {
      // docs/product.md §5 check order: 401 → 429 → 403 scope → 400 (body, query) → 404 → 403 → 409 → 422 → 409.
      let principal: Omit<Ctx, 'db'> | null = null;
      if (spec.auth !== 'none') {
        const auth = await authenticateApiKey(getDb(), req.headers.get('authorization'));
        if (!auth) throw new DomainError('unauthenticated', 'Send a valid API key as "Authorization: Bearer <key>".');
        if (auth.retryAfterSeconds !== undefined) {
          return problemResponse(apiKeyRateLimited(auth.spent ?? ['key'], auth.retryAfterSeconds));
        }
        const clockOffsetMs = await readClockOffsetMs(getDb());
        principal = { ...auth.principal, now: shifted(auth.now, clockOffsetMs), clock: 'database', clockOffsetMs };
        // The key's scopes came with it (one statement); a call outside them reads nothing more.
        if (spec.scope) assertMayCall(principal, spec.scope);
      }
      // 406 before the request's own 400s: JSON everywhere (also for `*/*` or no Accept), and a
      // list's export formats where it declares one (docs/product.md §5.8).
      const mediaType = negotiateMediaType(req.headers.get('accept'), spec.export ? [JSON_MEDIA_TYPE, CSV_MEDIA_TYPE, NDJSON_MEDIA_TYPE] : [JSON_MEDIA_TYPE]);
      const url = new URL(req.url);
      const rawQuery = queryObject(url);
      // Only a GET reads its input from the query; every other method takes none there.
      const query = spec.method === 'GET' ? { success: true as const, data: {} } : EmptyQuery.safeParse(rawQuery);
      if (!query.success) throw invalidRequest('query', query.error.issues);
      let json: unknown = undefined;
      if (spec.method !== 'GET') json = parseRequestJson(await readBody(req));
      const { input, notFound } = readInput(spec, spec.method === 'GET' ? rawQuery : json, (await route?.params) ?? {});
      const idemKey = mutating.has(req.method) ? req.headers.get('idempotency-key') : null;
      if (idemKey !== null) {
        const k = IdempotencyKey.safeParse(idemKey);
        if (!k.success) throw invalidRequest('header.Idempotency-Key', k.error.issues);
        if (spec.idempotency === 'refused') {
          throw new DomainError(
            'invalid_request',
            'This route does not take an Idempotency-Key: its answer holds a secret that is shown once and never stored, so it cannot be replayed. Send the request without it.',
            {
              errors: [{ path: 'header.Idempotency-Key', message: 'is not accepted by this route' }],
            },
          );
        }
      }
      if (notFound) throw new DomainError('not_found', 'No resource exists at this path.');
      const format = exportFormatOf(mediaType);
      if (format && spec.export && principal) {
        // The list verb paged through on the pool, each page its own reads: never one transaction.
        const ctx: Ctx = { ...principal, db: getDb() };
        return await answerExport({
          ctx,
          list: spec.run,
          declaration: spec.export,
          input: input as ExportableInput & Record<string, unknown>,
          format,
          signal: req.signal,
        });
      }

      const status = spec.status ?? 200;
      // Public routes (auth: 'none') get no principal and need no database: their handlers
      // must not read ctx, which is why it is only typed, not built, for them.
      const execute = async (dbOrTx: DbOrTx | null): Promise<StoredResponse> => {
        try {
          const ctx = (principal && dbOrTx ? { ...principal, db: dbOrTx } : {}) as Ctx;
          const result = await spec.run({ ctx, input });
          return { status, body: JSON.stringify(result) };
        } catch (e) {
          // A verb's 429 (creating API keys too fast) says when to retry, as the pipeline's does.
          if (e instanceof DomainError && e.httpStatus < 500)
            return {
              status: e.httpStatus,
              body: JSON.stringify(e.toProblem()),
              ...(e.retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(e.retryAfterSeconds) } } : {}),
            };
          throw e;
        }
      };
      if (idemKey !== null && principal) {
        const scope = { orgId: principal.orgId, method: req.method, path: canonicalPath(url.pathname), key: idemKey };
        const mode = spec.readOnly?.(input) ? 'read' : 'write';
        const r = await runIdempotent(
          getDb(),
          scope,
          requestFingerprint(canonicalJson(query.data ?? {}), canonicalJson(json ?? null)),
          principal.now,
          execute,
          mode,
        );
        return storedToResponse(r, r.replayed ? { 'idempotent-replayed': 'true' } : {});
      }
      return storedToResponse(await execute(principal ? getDb() : null));
    } catch (e) {
      if (e instanceof DomainError && e.httpStatus < 500) return problemResponse(e);
      // The database gone (a stopped server, a killed connection): 503 with Retry-After, not a
      // 500. Nothing half-done stays: the transaction died with the connection.
      const unavailable = toServiceUnavailable(e);
      if (unavailable) return serviceUnavailableResponse(unavailable, e);
      return internalErrorResponse(e);
    }
  };
}

function storedToResponse(r: StoredResponse, extra: Record<string, string> = {}): Response {
  if (r.status < 400) return jsonResponse(r.status, r.body, extra);
  const headers = { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...r.headers, ...extra };
  return new Response(r.body, { status: r.status, headers });
}

/**
 * Builds every HTTP method export of a Next route file under /v1: the declared methods run
 * through the shared pipeline (auth, validation, idempotency, error mapping); the rest answer
 * 405 problem+json with `Allow`, which Next would otherwise answer with an empty body.
 * @param methods the route table's entries of one path, by method (server/rest/routes.ts `routeHandlers`).
 */
export function restRoute(methods: Partial<Record<DeclaredMethod, RouteSpec>>): Record<HttpMethod, NextHandler> {
  const declared = Object.keys(methods) as DeclaredMethod[];
  const allow = allowHeader(declared);
  const out = {} as Record<HttpMethod, NextHandler>;
  for (const m of httpMethods) {
    const spec = m === 'HEAD' || m === 'OPTIONS' ? undefined : methods[m];
    if (spec) out[m] = runMethod(spec);
    else if (m === 'OPTIONS') out[m] = async () => new Response(null, { status: 204, headers: { allow } });
    else if (m === 'HEAD' && methods.GET) {
      const get = runMethod(methods.GET);
      out[m] = async (req, route) => {
        const res = await get(req, route);
        // An export's stream reads nothing more once cancelled.
        await res.body?.cancel();
        return new Response(null, { status: res.status, headers: res.headers });
      };
    } else out[m] = async () => methodNotAllowed(allow);
  }
  return out;
}

/** For the /v1 catch-all: every method of an unknown path is 404 problem+json. */
export function notFoundRoute(): Record<HttpMethod, NextHandler> {
  const h: NextHandler = async () => problemResponse(new DomainError('not_found', 'No API route exists at this path; see /v1/openapi.json.'));
  return Object.fromEntries(httpMethods.map((m) => [m, h])) as Record<HttpMethod, NextHandler>;
}
