/**
 * The TypeScript SDK of the public REST API (docs/product.md §5): openapi-fetch over the types
 * generated from the served document, and the little the API's conventions need beside it —
 * retries and idempotency keys (./retry.ts), a list's pages as one iteration, the events feed as
 * an async iterator, and the reclaim's dry-run narrowing.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/schema';
import { ApiProblemError, readProblem } from './problems';
import { createRetryingFetch, type RetryOptions } from './retry';

export type ClientOptions = {
  /** Where the API is served, e.g. `http://localhost:3000` (the `/v1` paths are appended). */
  baseUrl: string;
  /** An API key of the acting org: `Authorization: Bearer <key>`. */
  apiKey: string;
  /** The fetch underneath (default the global one). */
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryOptions;
};

type Schemas = components['schemas'];
export type Reservation = Schemas['Reservation'];
export type ReclaimResponse = Schemas['ReclaimResponse'];
export type ReclaimDryRun = Schemas['ReclaimDryRun'];
export type ReclaimApplied = Schemas['ReclaimApplied'];
export type Event = Schemas['Event'];
export type EventType = Event['type'];

/** Paths whose GET pages with `cursor` and answers `{ items, nextCursor? }` (docs/product.md §5, "Lists"). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: infer Q } } } ? ('cursor' extends keyof NonNullable<Q> ? P : never) : never;
}[keyof paths];
type ListOperation<P extends ListPath> = paths[P]['get'];
type ListBody<P extends ListPath> = ListOperation<P>['responses'] extends { 200: { content: { 'application/json': infer B } } } ? B : never;
/** One item of a list. */
export type ListItem<P extends ListPath> = ListBody<P> extends { items: (infer I)[] } ? I : never;
/** A list's parameters but the cursor, which the iteration owns. */
export type ListParams<P extends ListPath> = {
  query?: Omit<NonNullable<ListOperation<P>['parameters']['query']>, 'cursor'>;
} & (ListOperation<P>['parameters'] extends { path: infer Path } ? { path: Path } : { path?: never });

export type EventsOptions = {
  /** Only these types (docs/product.md §5.7); none: all. */
  types?: readonly EventType[];
  /** Start after this cursor (a `nextCursor` of the feed); absent: the oldest event kept. */
  after?: string;
  /** Seconds each request waits for an event (0–30, default 30). */
  wait?: number;
  /** Stop when the feed is caught up instead of waiting for more. */
  stopWhenCaughtUp?: boolean;
  /** Told the cursor after each page, to resume from later. */
  onCursor?: (cursor: string) => void;
  signal?: AbortSignal;
};

type RawGet = (path: string, init: { params: unknown; signal?: AbortSignal }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Is this reclaim answer a dry run's (docs/product.md §5.1, step 6: `wouldTerminate` and
 * `wouldSkip`, never `terminated`/`skipped`)?
 */
export function isDryRun(answer: ReclaimResponse): answer is ReclaimDryRun {
  return Array.isArray(answer.wouldTerminate);
}

/**
 * Makes a client of the public REST API (docs/product.md §5). `client.api` is openapi-fetch's
 * typed client (`client.api.POST('/v1/…', { params, body })` → `{ data, error, response }`, the
 * error typed per operation); the rest is the API's conventions.
 */
export function createGpuReservationsClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '');
  const api: Client<paths> = createClient<paths>({
    baseUrl: base,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: createRetryingFetch(options.fetch ?? ((r) => globalThis.fetch(r)), new URL(base).pathname, options.retry),
  });
  // openapi-fetch's GET is typed per literal path; the iterations below are generic over paths.
  const get = api.GET as unknown as RawGet;

  /**
   * Every item of a list, page after page, following `nextCursor` (docs/product.md §5, "Lists").
   * @throws ApiProblemError when a page is a problem.
   */
  async function* paginate<P extends ListPath>(path: P, params?: ListParams<P>, signal?: AbortSignal): AsyncGenerator<ListItem<P>> {
    let cursor: string | undefined;
    do {
      const query = { ...(params?.query ?? {}), ...(cursor === undefined ? {} : { cursor }) };
      const { data, error, response } = await get(path, { params: { ...params, query }, ...(signal ? { signal } : {}) });
      if (error !== undefined || data === undefined) throw new ApiProblemError(readProblem(error, response.status), response.status);
      const page = data as { items: ListItem<P>[]; nextCursor?: string };
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }

  /**
   * The acting org's events in commit order, long-polling for more (docs/product.md §5.7, "The
   * feed"): `for await (const e of client.events({ types: ['vm.reclaimed'] }))`. Break to stop.
   * @throws ApiProblemError on a problem, e.g. 410 `cursor_expired`.
   */
  async function* events(opts: EventsOptions = {}): AsyncGenerator<Event> {
    let after = opts.after;
    for (;;) {
      const query = {
        ...(after === undefined ? {} : { after }),
        ...(opts.types?.length ? { types: opts.types.join(',') } : {}),
        wait: opts.stopWhenCaughtUp ? 0 : (opts.wait ?? 30),
      };
      const { data, error, response } = await api.GET('/v1/events', { params: { query }, ...(opts.signal ? { signal: opts.signal } : {}) });
      if (error !== undefined || data === undefined) throw new ApiProblemError(readProblem(error, response.status), response.status);
      yield* data.items;
      after = data.nextCursor;
      opts.onCursor?.(after);
      if (opts.signal?.aborted || (opts.stopWhenCaughtUp && data.items.length === 0)) return;
    }
  }

  return { api, paginate, events };
}

export type GpuReservationsClient = ReturnType<typeof createGpuReservationsClient>;
