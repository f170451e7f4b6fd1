import { getDb, type DbOrTx } from '@/db/client';
import { z } from 'zod';
import { apiKeyRateLimited, authenticateApiKey } from '../api-keys/authenticate';
import type { Ctx } from '../context';
import { DomainError, toServiceUnavailable } from '../errors';
import { readCappedBody } from '../http/body';
import { assertJsonMediaType } from '../http/media-type';
import { allowHeader, httpMethods, type DeclaredMethod, type HttpMethod } from '../http/methods';
import { internalErrorResponse, invalidRequest, jsonResponse, problemResponse, serviceUnavailableResponse } from '../http/problem';
import { requestFingerprint, runIdempotent, type StoredResponse } from './idempotency';
import { canonicalJson, parseRequestJson } from './json';

const mutating = new Set<string>(['POST', 'PUT', 'PATCH']);

const EmptyQuery = z.object({}).strict();
const NoParams = z.object({});
/** The `Idempotency-Key` header (docs/product.md §5 Idempotency: 1–255 characters). */
export const IdempotencyKey = z.string().min(1, 'must be 1–255 characters').max(255, 'must be 1–255 characters');

export type RestHandler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  /** Path parameters; a value that does not parse is 404 (docs/product.md §5 Ids). */
  params?: P;
  /** Query parameters (strict: unknown ones are 400). */
  query?: Q;
  /** JSON body; when set, the request must be `application/json` of at most 64 KiB. */
  body?: B;
  /** Status of a successful answer (200 unless said). */
  status?: number;
  /** `none` for the few public routes (the OpenAPI document). */
  auth?: 'apiKey' | 'none';
  /**
   * `refused` where the answer must never be stored, so a replay could not repeat it: creating
   * an API key, whose secret is shown once and kept nowhere (docs/product.md §9 m). An
   * `Idempotency-Key` there is 400, rather than ignored: a client relying on it must learn that
   * a retry creates another key.
   */
  idempotency?: 'refused';
  /**
   * Whether this request writes nothing (a dry run): then, under an `Idempotency-Key`, the verb
   * runs on its own read-only snapshot first and only the stored response is written after it,
   * rather than the verb running inside the idempotency record's write transaction.
   */
  readOnly?: (body: z.output<B>) => boolean;
  handle: (args: { ctx: Ctx; params: z.output<P>; query: z.output<Q>; body: z.output<B> }) => Promise<unknown>;
};

/** Declares one method of a REST route; exists for type inference of the schemas. */
export function handler<P extends z.ZodType = typeof NoParams, Q extends z.ZodType = typeof EmptyQuery, B extends z.ZodType = z.ZodUndefined>(
  h: RestHandler<P, Q, B>,
): RestHandler<P, Q, B> {
  return h;
}

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

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in out)
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

function runMethod(h: RestHandler<z.ZodType, z.ZodType, z.ZodType>): NextHandler {
  return async (req, route) => {
    try {
      // docs/product.md §5 check order: 401 → 400 (body, query) → 404 → 403 → 409 → 422 → 409.
      let principal: Omit<Ctx, 'db'> | null = null;
      if (h.auth !== 'none') {
        const auth = await authenticateApiKey(getDb(), req.headers.get('authorization'));
        if (!auth) throw new DomainError('unauthenticated', 'Send a valid API key as "Authorization: Bearer <key>".');
        if (auth.retryAfterSeconds !== undefined) {
          return problemResponse(apiKeyRateLimited(auth.spent ?? ['key'], auth.retryAfterSeconds));
        }
        principal = { ...auth.principal, now: auth.now, clock: 'database' };
      }
      const url = new URL(req.url);
      const query = (h.query ?? EmptyQuery).safeParse(queryObject(url));
      if (!query.success) throw invalidRequest('query', query.error.issues);
      let json: unknown = undefined;
      let body: unknown = undefined;
      if (h.body) {
        json = parseRequestJson(await readBody(req));
        const parsed = h.body.safeParse(json);
        if (!parsed.success) throw invalidRequest('body', parsed.error.issues);
        body = parsed.data;
      }
      const idemKey = mutating.has(req.method) ? req.headers.get('idempotency-key') : null;
      if (idemKey !== null) {
        const k = IdempotencyKey.safeParse(idemKey);
        if (!k.success) throw invalidRequest('header.Idempotency-Key', k.error.issues);
        if (h.idempotency === 'refused') {
          throw new DomainError(
            'invalid_request',
            'This route does not take an Idempotency-Key: its answer holds a secret that is shown once and never stored, so it cannot be replayed. Send the request without it.',
            {
              errors: [{ path: 'header.Idempotency-Key', message: 'is not accepted by this route' }],
            },
          );
        }
      }
      const params = (h.params ?? NoParams).safeParse((await route?.params) ?? {});
      if (!params.success) throw new DomainError('not_found', 'No resource exists at this path.');

      const status = h.status ?? 200;
      // Public routes (auth: 'none') get no principal and need no database: their handlers
      // must not read ctx, which is why it is only typed, not built, for them.
      const execute = async (dbOrTx: DbOrTx | null): Promise<StoredResponse> => {
        try {
          const ctx = (principal && dbOrTx ? { ...principal, db: dbOrTx } : {}) as Ctx;
          const result = await h.handle({ ctx, params: params.data, query: query.data, body });
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
        const mode = h.readOnly?.(body) ? 'read' : 'write';
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
 * Usage: `export const { GET, POST, … } = restRoute({ POST: handler({ … }) })`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each method's schemas are checked by handler()
export function restRoute(methods: Partial<Record<DeclaredMethod, RestHandler<any, any, any>>>): Record<HttpMethod, NextHandler> {
  const declared = Object.keys(methods) as DeclaredMethod[];
  const allow = allowHeader(declared);
  const out = {} as Record<HttpMethod, NextHandler>;
  for (const m of httpMethods) {
    const h = (methods as Partial<Record<HttpMethod, RestHandler<z.ZodType, z.ZodType, z.ZodType>>>)[m];
    if (h) out[m] = runMethod(h);
    else if (m === 'OPTIONS') out[m] = async () => new Response(null, { status: 204, headers: { allow } });
    else if (m === 'HEAD' && methods.GET) {
      const get = runMethod(methods.GET as RestHandler<z.ZodType, z.ZodType, z.ZodType>);
      out[m] = async (req, route) => {
        const res = await get(req, route);
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
