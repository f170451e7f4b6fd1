/**
 * The e2e API tests' `test`: Playwright's, whose `request` judges every answer from `/v1` against
 * the OpenAPI document the server serves (server/openapi/conformance.ts: status, headers,
 * content type, body), failing the test on the first that departs from it (docs/product.md §5:
 * the document states what the server does). Specs import `test` and `expect` from here.
 */
import { test as base, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { answerChecker, type Answer } from '../../server/openapi/conformance';
import { readState } from './state';

let check: ((answer: Answer) => string[]) | undefined;

/** The judge, built once per worker from the document the server serves. */
async function checker(): Promise<(answer: Answer) => string[]> {
  if (!check) {
    const res = await fetch(new URL('/v1/openapi.json', readState().baseURL));
    check = answerChecker((await res.json()) as Parameters<typeof answerChecker>[0]);
  }
  return check;
}

const underV1 = (path: string) => /^\/v1(\/|$|\?)/.test(path);

/**
 * Fails when an answer from /v1 departs from the served document.
 * @param answer what was asked (method, path as sent) and what came back.
 */
export async function expectConforming(answer: Answer): Promise<void> {
  if (!underV1(answer.path)) return;
  const problems = (await checker())(answer);
  expect(problems, `${answer.method} ${answer.path} → ${answer.status} departs from the OpenAPI document`).toEqual([]);
}

const verbs = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', head: 'HEAD', fetch: undefined } as const;

/**
 * `ctx` with every request method judging its answer (`expectConforming`).
 * @returns a context that behaves as `ctx` does, but for the check.
 */
export function conforming(ctx: APIRequestContext): APIRequestContext {
  return new Proxy(ctx, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      // Any other method runs on the context itself (`dispose` must find it, not this proxy, among the open ones).
      if (typeof value === 'function' && (typeof prop !== 'string' || !(prop in verbs))) return (value as (...a: unknown[]) => unknown).bind(target);
      if (typeof prop !== 'string' || !(prop in verbs) || typeof value !== 'function') return value;
      return async (url: string, options?: { method?: string }) => {
        const res = (await (value as (u: string, o?: unknown) => Promise<APIResponse>).call(target, url, options)) as APIResponse;
        const method = verbs[prop as keyof typeof verbs] ?? options?.method?.toUpperCase() ?? 'GET';
        const path = new URL(res.url()).pathname + new URL(res.url()).search;
        await expectConforming({ method, path, status: res.status(), headers: res.headers(), body: method === 'HEAD' ? '' : await res.text() });
        return res;
      };
    },
  });
}

/** Playwright's `test`, its `request` fixture judging every answer from /v1 against the served document. */
export const test = base.extend({
  request: async ({ request }, use) => {
    await use(conforming(request));
  },
});

export { expect };
