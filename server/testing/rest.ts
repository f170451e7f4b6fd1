import type { Db } from '@/db/client';
import { issueApiKey } from '../api-keys/internal';

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

/** Issues one API key per org and returns them by org id. */
export async function issueKeys(db: Db, orgIds: readonly string[]): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (const orgId of orgIds) keys[orgId] = (await issueApiKey(db, { orgId, name: 'test', now: new Date() })).secret;
  return keys;
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
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> };
}
