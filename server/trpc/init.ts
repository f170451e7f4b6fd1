/**
 * tRPC wiring, top-down: 1. context → 2. init (transformer, error shape) → 3. procedures.
 * Routers in ./routers stay thin: parse with the verb's zod schema, call the verb.
 */
import type { Db } from '@/db/client';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { readClockOffsetMs, shifted } from '../clock';
import type { Ctx, Principal } from '../context';
import { DomainError, errorTable, toServiceUnavailable, type DomainErrorArgs, type ErrorCode, type Problem } from '../errors';
import { createRequestReads, type RequestReads } from '../request-reads';
import { internalError, invalidRequest } from '../http/problem';

// 1. Context ---------------------------------------------------------------------------

/** What a tRPC call starts with: the signed-in principal (or none) and the pool. `now`
 * overrides the clock (tests); otherwise it is read from PostgreSQL (docs/product.md §4) once
 * per request: `reads` are what the calls of one request share (an HTTP batch, one page render;
 * server/request-reads.ts); without them, each call reads its own. */
export type TrpcContext = { principal: Principal | null; db: Db; now?: Date; reads?: RequestReads };

// 2. Init ------------------------------------------------------------------------------

const NOT_SUPERJSON = 'The input is not superjson: send {"json": …, "meta"?: {"values"?: …}} as the console’s tRPC client does';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every value inside `root`, depth-first without recursion (a body may nest 20,000 deep). */
function* valuesIn(root: unknown): Generator<unknown> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    yield v;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isRecord(v)) for (const x of Object.values(v)) stack.push(x);
  }
}

/**
 * What no console input holds, in a superjson payload: a type other than `undefined` in
 * `meta.values` (every input is plain JSON — timestamps travel as strings), or a `__proto__`
 * key in `json`, which superjson would drop silently where REST refuses it as an unknown field.
 * @returns a phrase naming the first such thing, or null.
 */
function findForeign(json: unknown, values: unknown): string | null {
  for (const v of valuesIn(values)) if (typeof v === 'string' && v !== 'undefined') return `the superjson type "${v.slice(0, 40)}"`;
  for (const v of valuesIn(json)) if (isRecord(v) && Object.hasOwn(v, '__proto__')) return 'a field named "__proto__"';
  return null;
}

/**
 * superjson's reader, refusing what is not its own output with a sentence a person can act on
 * (tRPC answers the thrown message as a 400): `meta.values: "x"` once answered "Maximum call
 * stack size exceeded", a null payload "Cannot destructure property 'json'", and
 * `meta.values: ["Error"]` turned an input into an Error that the schema then read.
 */
function deserializeInput(payload: unknown): unknown {
  if (!isRecord(payload) || !('json' in payload)) throw new Error(`${NOT_SUPERJSON}.`);
  const { meta } = payload;
  if (
    meta !== undefined &&
    !(
      isRecord(meta) &&
      (meta.values === undefined || typeof meta.values === 'object') &&
      (meta.referentialEqualities === undefined || typeof meta.referentialEqualities === 'object')
    )
  ) {
    throw new Error(`${NOT_SUPERJSON} (its "meta" is malformed).`);
  }
  const foreign = findForeign(payload.json, isRecord(meta) ? meta.values : undefined);
  if (foreign) throw new Error(`The input holds ${foreign}; procedures here take plain JSON values only.`);
  try {
    return superjson.deserialize(payload as unknown as Parameters<typeof superjson.deserialize>[0]);
  } catch (e) {
    throw new Error(`${NOT_SUPERJSON} (${e instanceof Error ? e.message : 'it could not be read'}).`);
  }
}

/**
 * The error-table code of one of tRPC's own refusals (405, 413, 415 …): the table decides, as
 * everywhere; a tRPC code the table does not name once (PARSE_ERROR) is a 400.
 */
function codeForTrpc(trpcCode: string): ErrorCode {
  const rows = (Object.keys(errorTable) as ErrorCode[]).filter((c) => errorTable[c].trpc === trpcCode);
  return rows.length === 1 ? rows[0]! : 'invalid_request';
}

/**
 * The problem a tRPC error answers with (docs/product.md §5 Errors), for the HTTP answer
 * (errorFormatter) and for a page that read a query on the server (server/trpc/server.tsx).
 * @param httpStatus the status tRPC answers the error with.
 * @returns null for a status outside 4xx/5xx problems tRPC has no row for.
 */
export function problemOfTrpcError(error: TRPCError, httpStatus: number): Problem | null {
  if (error.cause instanceof DomainError) return error.cause.toProblem();
  if (error.cause instanceof ZodError) return invalidRequest('input', error.cause.issues).toProblem();
  // A bug, or the database gone: the message may be a driver's (`Failed query: <sql>
  // params: …`). Say nothing of internals, as REST's 500 does; the server log has it.
  if (error.code === 'INTERNAL_SERVER_ERROR') return internalError();
  // tRPC's own refusals (unparsable input, an oversized batch, an unknown procedure, a query
  // sent as POST): the problem of the same status REST answers, a 400 naming the input.
  if (httpStatus < 400 || httpStatus >= 500) return null;
  const code = codeForTrpc(error.code);
  // The rows tRPC's own codes name alone carry no extras but invalid_request's `errors`, given here.
  const args = [code, error.message, code === 'invalid_request' ? { errors: [{ path: 'input', message: error.message }] } : {}] as DomainErrorArgs;
  return new DomainError(...args).toProblem();
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: { input: { serialize: (v: unknown) => superjson.serialize(v), deserialize: deserializeInput }, output: superjson },
  /**
   * Every error carries the problem REST would answer (docs/product.md §5 Errors): a domain
   * error's own, and for input that fails validation the same 400 `invalid_request` with one
   * `errors[]` entry per field (paths under `input.`, as REST's are under `body.`/`query.`), so
   * one form component shows both transports' errors next to their fields.
   */
  errorFormatter({ shape, error }) {
    const problem = problemOfTrpcError(error, shape.data.httpStatus);
    if (error.code === 'INTERNAL_SERVER_ERROR') return { ...shape, message: problem!.detail, data: { ...shape.data, stack: undefined, problem } };
    return { ...shape, data: { ...shape.data, problem } };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

// 3. Procedures ------------------------------------------------------------------------

/**
 * Maps domain errors to TRPCErrors through the one table (server/errors.ts). tRPC v11 has
 * already caught the resolver's throw when `next()` returns, so this inspects the result.
 */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    // The database unreachable is 503 service_unavailable, as over REST, not a 500.
    const cause = result.error.cause instanceof DomainError ? result.error.cause : toServiceUnavailable(result.error.cause);
    if (cause) throw toTrpcError(cause);
  }
  return result;
});

/** A domain error as the TRPCError of its row in the one table (server/errors.ts). */
export function toTrpcError(cause: DomainError): TRPCError {
  return new TRPCError({ code: errorTable[cause.code].trpc, message: cause.detail, cause });
}

export const publicProcedure = t.procedure.use(mapDomainErrors);

/**
 * Requires a principal; hands resolvers the verb context with the one clock, shared by the
 * request's calls. Queries also get the request's reads (one node read for a page's queries);
 * mutations do not: they lock and read inside their own transaction.
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  if (!ctx.principal) throw new DomainError('unauthenticated', 'Sign in to continue.');
  const reads = ctx.reads ?? createRequestReads(ctx.db);
  // The test clock (server/clock.ts) moves the request clock only when TEST_CLOCK=1; else 0, read by no statement.
  const clockOffsetMs = ctx.now ? 0 : await readClockOffsetMs(ctx.db);
  const now = ctx.now ?? shifted(await reads.now(), clockOffsetMs);
  const verbCtx: Ctx = { ...ctx.principal, db: ctx.db, now, clock: ctx.now ? 'fixed' : 'database', clockOffsetMs, ...(type === 'query' ? { reads } : {}) };
  return next({ ctx: { verbCtx } });
});
