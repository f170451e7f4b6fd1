/**
 * tRPC wiring, top-down: 1. context → 2. init (transformer, error shape) → 3. procedures.
 * Routers in ./routers stay thin: parse with the verb's zod schema, call the verb.
 */
import type { Db } from '@/db/client';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import type { Ctx, Principal } from '../context';
import { DomainError, errorTable, type Problem } from '../errors';
import { createRequestReads, type RequestReads } from '../request-reads';
import { internalError, invalidRequest } from '../rest/problem';

// 1. Context ---------------------------------------------------------------------------

/** What a tRPC call starts with: the signed-in principal (or none) and the pool. `now`
 * overrides the clock (tests); otherwise it is read from PostgreSQL (docs/product.md §4) once
 * per request: `reads` are what the calls of one request share (an HTTP batch, one page render;
 * server/request-reads.ts); without them, each call reads its own. */
export type TrpcContext = { principal: Principal | null; db: Db; now?: Date; reads?: RequestReads };

// 2. Init ------------------------------------------------------------------------------

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  /**
   * Every error carries the problem REST would answer (docs/product.md §5 Errors): a domain
   * error's own, and for input that fails validation the same 400 `invalid_request` with one
   * `errors[]` entry per field (paths under `input.`, as REST's are under `body.`/`query.`), so
   * one form component shows both transports' errors next to their fields.
   */
  errorFormatter({ shape, error }) {
    if (error.cause instanceof DomainError) return { ...shape, data: { ...shape.data, problem: error.cause.toProblem() } };
    if (error.cause instanceof ZodError) return { ...shape, data: { ...shape.data, problem: invalidRequest('input', error.cause.issues).toProblem() } };
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      // A bug, or the database gone: the message may be a driver's (`Failed query: <sql>
      // params: …`). Say nothing of internals, as REST's 500 does; the server log has it.
      const problem = internalError();
      return { ...shape, message: problem.detail, data: { ...shape.data, stack: undefined, problem } };
    }
    // tRPC's own refusals (unparsable input, an oversized batch, an unknown procedure).
    const problem: Problem | null = shape.data.httpStatus >= 400 && shape.data.httpStatus < 500 ? new DomainError(shape.data.httpStatus === 404 ? 'not_found' : 'invalid_request', error.message).toProblem() : null;
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
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: errorTable[cause.code].trpc, message: cause.detail, cause });
  }
  return result;
});

export const publicProcedure = t.procedure.use(mapDomainErrors);

/**
 * Requires a principal; hands resolvers the verb context with the one clock, shared by the
 * request's calls. Queries also get the request's reads (one node read for a page's queries);
 * mutations do not: they lock and read inside their own transaction.
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  if (!ctx.principal) throw new DomainError('unauthenticated', 'Sign in to continue.');
  const reads = ctx.reads ?? createRequestReads(ctx.db);
  const now = ctx.now ?? (await reads.now());
  const verbCtx: Ctx = { ...ctx.principal, db: ctx.db, now, clock: ctx.now ? 'fixed' : 'database', ...(type === 'query' ? { reads } : {}) };
  return next({ ctx: { verbCtx } });
});
