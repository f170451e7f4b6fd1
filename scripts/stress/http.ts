/**
 * The storm's two doors into the app, as real clients use them: the REST API with an API key
 * (docs/product.md §5), and the console's tRPC endpoint with a signed-in session cookie, batched
 * and superjson-encoded the way the console's `httpBatchLink` sends it (docs/product.md §6).
 */

/** One answer: HTTP status (0 when the request failed outright), parsed body, timing. */
export type Reply = {
  status: number;
  /** The JSON body (REST), or the call's `result.data.json` / `error.json` (tRPC). */
  body: unknown;
  /** The raw body text, for comparing idempotent replays byte for byte. */
  text: string;
  ms: number;
  /** The problem `code` of an error answer (REST problem+json, tRPC `data.problem`). */
  code?: string;
  /** `Idempotent-Replayed: true` was sent back. */
  replayed: boolean;
  /** Why the request got no answer (network error, timeout). */
  error?: string;
  /** Which instance it went to, and when it was sent (performance.now()): fault windows judge by both. */
  base: string;
  at: number;
  /** The `Retry-After` header, when one came. */
  retryAfter?: string;
};

const TIMEOUT_MS = 30_000;

type Timed = { res?: Response; text: string; ms: number; error?: string; base: string; at: number; retryAfter?: string };

async function timed(base: string, run: () => Promise<Response>): Promise<Timed> {
  const started = performance.now();
  try {
    const res = await run();
    const text = await res.text();
    const retryAfter = res.headers.get('retry-after') ?? undefined;
    return { res, text, ms: performance.now() - started, base, at: started, ...(retryAfter ? { retryAfter } : {}) };
  } catch (e) {
    return {
      text: '',
      ms: performance.now() - started,
      base,
      at: started,
      error: e instanceof Error ? `${e.name}: ${e.message}${e.cause ? ` (${String(e.cause)})` : ''}` : String(e),
    };
  }
}

/** The fields every Reply of one HTTP exchange shares. */
const exchange = (r: Timed) => ({ ms: r.ms, base: r.base, at: r.at, ...(r.retryAfter ? { retryAfter: r.retryAfter } : {}) });

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A REST call with `Authorization: Bearer <key>`.
 * @param opts.idempotencyKey sent as `Idempotency-Key` (docs/product.md §5 Idempotency).
 */
export async function rest(base: string, key: string, method: string, path: string, body?: unknown, opts: { idempotencyKey?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const r = await timed(base, () =>
    fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) }),
  );
  if (!r.res) return { status: 0, body: undefined, text: '', ...exchange(r), replayed: false, error: r.error };
  const json = parse(r.text);
  const code = r.res.status >= 400 && json && typeof json === 'object' ? (json as { code?: string }).code : undefined;
  return {
    status: r.res.status,
    body: json,
    text: r.text,
    ...exchange(r),
    replayed: r.res.headers.get('idempotent-replayed') === 'true',
    ...(code ? { code } : {}),
  };
}

/** A console session: the cookie header a browser would send. */
export type Session = { email: string; cookie: string };

function cookiePairs(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]!);
}

/**
 * Signs in through Auth.js's credentials endpoint as a browser would (GET the CSRF token, POST
 * the form with its cookie), and keeps the session cookie. The cookie is a JWT signed with the
 * shared AUTH_SECRET, naming a `sessions` row, so it works on every instance.
 * @throws Error when no session cookie comes back.
 */
export async function signIn(base: string, email: string, password: string): Promise<Session> {
  // A 429 (every password-check slot of the instance taken, docs/product.md §9.3) says when to retry.
  for (let attempt = 0; ; attempt++) {
    const csrf = await fetch(`${base}/api/auth/csrf`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiePairs(csrf).join('; ') },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: '/' }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.text();
    if (res.status === 429 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    const session = cookiePairs(res).find((c) => /^(__Secure-)?authjs\.session-token=/.test(c));
    if (!session) throw new Error(`sign-in as ${email} answered ${res.status} without a session cookie`);
    return { email, cookie: session };
  }
}

type TrpcItem = {
  result?: { data?: { json?: unknown } };
  error?: { json?: { message?: string; data?: { httpStatus?: number; code?: string; problem?: { code?: string } | null } } };
};

function trpcReply(item: TrpcItem | undefined, status: number, r: Timed): Reply {
  const { text } = r;
  if (item?.error) {
    const data = item.error.json?.data;
    return {
      status: data?.httpStatus ?? status,
      body: item.error.json,
      text,
      ...exchange(r),
      replayed: false,
      code: data?.problem?.code ?? data?.code ?? 'trpc_error',
    };
  }
  // A call that succeeded is a 200 even inside a mixed batch (which answers 207 as a whole).
  if (item?.result) return { status: 200, body: item.result.data?.json, text, ...exchange(r), replayed: false };
  return { status: status >= 400 ? status : 502, body: undefined, text, ...exchange(r), replayed: false, code: 'no_result' };
}

const consoleHeaders = (session: Session) => ({ cookie: session.cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' });

/**
 * tRPC calls of one batch, as the console's batch link sends them: queries as one GET with
 * `?batch=1&input=`, mutations as one POST, with the session cookie and the browser's
 * `Sec-Fetch-Site: same-origin` (cross-site cookie calls are refused, docs/product.md §6).
 * @returns one Reply per call, each with that call's own status.
 */
export async function trpc(base: string, session: Session, type: 'query' | 'mutation', calls: { path: string; input: unknown }[]): Promise<Reply[]> {
  const paths = calls.map((c) => c.path).join(',');
  const input = Object.fromEntries(calls.map((c, i) => [String(i), { json: c.input }]));
  const r = await timed(base, () =>
    type === 'query'
      ? fetch(`${base}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: consoleHeaders(session),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
      : fetch(`${base}/api/trpc/${paths}?batch=1`, {
          method: 'POST',
          headers: consoleHeaders(session),
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        }),
  );
  if (!r.res) return calls.map(() => ({ status: 0, body: undefined, text: '', ...exchange(r), replayed: false, error: r.error }));
  const json = parse(r.text);
  if (!Array.isArray(json)) {
    // A refusal of the whole request (413, 429, 503, an error page): every call gets its status.
    const code = json && typeof json === 'object' ? (json as { code?: string }).code : undefined;
    return calls.map(() => ({ status: r.res!.status, body: json, text: r.text, ...exchange(r), replayed: false, code: code ?? 'not_a_batch' }));
  }
  return calls.map((_, i) => trpcReply(json[i] as TrpcItem | undefined, r.res!.status, r));
}
