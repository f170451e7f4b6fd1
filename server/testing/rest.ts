import type { Db } from '@/db/client';
import { issueApiKey } from '../api-keys/internal';
import { answerChecker, type Answer } from '../openapi/conformance';
import { buildOpenApiDocument } from '../openapi/document';
import { restRoutes } from '../rest/routes';

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

/** Issues one API key per org and returns them by org id. */
export async function issueKeys(db: Db, orgIds: readonly string[]): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (const orgId of orgIds) keys[orgId] = (await issueApiKey(db, { orgId, name: 'test', now: new Date() })).secret;
  return keys;
}

let check: ((answer: Answer) => string[]) | undefined;

/**
 * Fails when an answer departs from the OpenAPI document (server/openapi/conformance.ts): every
 * REST answer a test receives through `callRoute` is judged, so a status, header, media type,
 * field or problem code the document does not state fails the test that met it.
 * @throws Error listing how the answer departs from the document.
 */
export function assertConforms(answer: Answer): void {
  check ??= answerChecker(JSON.parse(JSON.stringify(buildOpenApiDocument(restRoutes))));
  const problems = check(answer);
  if (problems.length > 0) throw new Error(`The answer departs from the OpenAPI document:\n${problems.join('\n')}\n${answer.body.slice(0, 500)}`);
}

/**
 * Calls a Next route handler as Next would: a Web Request plus the path params promise.
 * @returns status, headers and the parsed JSON body (or the raw text when not JSON).
 */
export async function callRoute(
  fn: RouteHandler,
  opts: { method?: string; path: string; params?: Record<string, string>; key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}) };
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const req = new Request(`http://localhost${opts.path}`, { method: opts.method ?? 'GET', headers: { ...headers, ...opts.headers }, body });
  const res = await fn(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  // The API's answers (under /v1); the bench floor and other routes are no part of the document.
  if (/^\/v1(\/|$|\?)/.test(opts.path)) assertConforms({ method: req.method, path: opts.path, status: res.status, headers: res.headers, body: text });
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> };
}
