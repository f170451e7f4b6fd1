import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { DomainError } from '../errors';
import { readCappedBody } from '../http/body';
import { assertJsonMediaType } from '../http/media-type';
import { problemResponse } from '../http/problem';
import { createHttpContext } from './http-context';
import { appRouter } from './root';
import { MAX_BATCH_SIZE } from './shared';

export { MAX_BATCH_SIZE };

export const TRPC_ENDPOINT = '/api/trpc';

/**
 * How many procedure calls a tRPC request carries (`/api/trpc/a,b,c?batch=1` is three),
 * counted as tRPC counts them: on the percent-decoded path, so `a%2Cb` is two as well.
 * @returns null for a path that cannot be decoded (it names no procedure).
 */
export function countCalls(url: URL): number | null {
  let paths: string;
  try {
    paths = decodeURIComponent(url.pathname.slice(TRPC_ENDPOINT.length + 1));
  } catch {
    return null;
  }
  return url.searchParams.get('batch') === '1' ? Math.max(1, paths.split(',').length) : 1;
}

/**
 * The console's tRPC endpoint: the same 64 KiB body cap as REST (413 before reading past
 * it), a bounded batch, and the per-principal rate limit (in the context).
 */
export async function handleTrpcRequest(req: Request): Promise<Response> {
  let forwarded = req;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readCappedBody(req);
      // tRPC would also take form data and octet streams (inputs no procedure here declares),
      // and a text/plain body is what a cross-site form can send without a preflight.
      if (body.byteLength > 0) assertJsonMediaType(req.headers);
    } catch (e) {
      if (e instanceof DomainError) return problemResponse(e);
      throw e;
    }
    forwarded = new Request(req.url, { method: req.method, headers: req.headers, body: body.byteLength ? body : null });
  }
  const calls = countCalls(new URL(req.url));
  if (calls === null) return problemResponse(new DomainError('not_found', 'No procedure exists at this path.'));
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: forwarded,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: () => createHttpContext(forwarded, calls),
    onError({ error, path }) {
      // The client is told nothing of internals (server/trpc/init.ts); the log is.
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`[trpc] ${path ?? '?'} failed`, error.cause ?? error);
    },
    responseMeta({ errors }) {
      // 429 and 503 tell the client when to come back, as REST does.
      const retry = errors.map((e) => e.cause).find((c): c is DomainError => c instanceof DomainError && c.retryAfterSeconds !== undefined);
      return retry ? { headers: new Headers({ 'retry-after': String(retry.retryAfterSeconds) }) } : {};
    },
  });
}
