/**
 * The SDK's fetch: an `Idempotency-Key` on every mutation the document says takes one, and safe,
 * bounded retries (docs/product.md §5: idempotency; 429 and 503 with `Retry-After`; 409
 * `idempotency_in_progress`).
 */
import { idempotentOperations } from './generated/operations';

export type RetryOptions = {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Backoff base in ms, doubled per attempt, with full jitter (default 200). */
  baseDelayMs?: number;
  /** The longest wait the SDK accepts, `Retry-After` included; a longer one returns the answer instead (default 30 000). */
  maxDelayMs?: number;
  /** How to wait; tests pass a fake. */
  sleep?: (ms: number) => Promise<void>;
  /** How to make a key; tests pass a fixed one. */
  newKey?: () => string;
};

type Fetch = (request: Request) => Promise<Response>;

/** `METHOD /v1/…/{param}` templates as matchers of a concrete method and path. */
const keyed = idempotentOperations.map((op) => {
  const [method, template = ''] = op.split(' ');
  return { method, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
});

/** Does the document declare `Idempotency-Key` on this operation (docs/product.md §5, "Idempotency")? */
export function takesIdempotencyKey(method: string, path: string): boolean {
  return keyed.some((k) => k.method === method.toUpperCase() && k.pattern.test(path));
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
function readRetryAfter(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function isInProgress(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    return ((await response.clone().json()) as { code?: unknown }).code === 'idempotency_in_progress';
  } catch {
    return false;
  }
}

/**
 * Wraps a fetch with the API's retry rules (docs/product.md §5): adds an `Idempotency-Key` where
 * the operation takes one and none was given, and keeps it across retries; retries network
 * errors only for GET/HEAD or keyed requests; retries 429 always (nothing was done), 503 and 409
 * `idempotency_in_progress` when safe, waiting `Retry-After` when given, else a jittered backoff.
 * @param apiPrefix the base URL's path, stripped before matching the document's paths.
 */
export function createRetryingFetch(inner: Fetch, apiPrefix: string, options: RetryOptions = {}): Fetch {
  const { retries = 3, baseDelayMs = 200, maxDelayMs = 30_000, sleep = wait, newKey = () => crypto.randomUUID() } = options;
  return async (request) => {
    const path = new URL(request.url).pathname.slice(apiPrefix.replace(/\/$/, '').length);
    const headers = new Headers(request.headers);
    if (!headers.has('idempotency-key') && takesIdempotencyKey(request.method, path)) headers.set('idempotency-key', newKey());
    const safe = request.method === 'GET' || request.method === 'HEAD' || headers.has('idempotency-key');
    // Buffered once, so that every attempt sends the same bytes under the same key.
    const body = request.body ? await request.arrayBuffer() : undefined;
    const attempt = () => inner(new Request(request.url, { method: request.method, headers, body: body ?? null, signal: request.signal }));
    const backoff = (n: number) => Math.min(maxDelayMs, Math.random() * baseDelayMs * 2 ** n);

    for (let n = 0; ; n++) {
      let response: Response;
      try {
        response = await attempt();
      } catch (error) {
        if (!safe || n >= retries || request.signal.aborted) throw error;
        await sleep(backoff(n));
        continue;
      }
      const retryable = response.status === 429 || (safe && (response.status === 503 || (await isInProgress(response))));
      if (!retryable || n >= retries) return response;
      const delay = readRetryAfter(response) ?? backoff(n);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
