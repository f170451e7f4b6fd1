/**
 * The console's tRPC router, built from the operations' declarations (server/operations.ts):
 * one procedure per declaration, `<router>.<procedure>` as its id says, each parsing with the
 * verb's input schema and calling the verb with the request's verb context. Nothing here is
 * written per operation.
 */
import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { AnyOperation, OperationGroup } from '../operation';
import { operationGroups } from '../operations';
import { assertMayCall } from '../policy';
import { createCallerFactory, createTRPCRouter, protectedProcedure } from './init';

/** What a verb resolves to. */
type OutputOf<Op> = Op extends { verb: (args: never) => Promise<infer O> } ? O : never;
type InputOf<Op> = Op extends { input: infer I extends z.ZodType } ? z.input<I> : never;

/** The procedure type a declaration becomes: the same one `protectedProcedure.input(…).query(…)` would give. */
type ProcedureOf<Op> = Op extends { kind: 'query' }
  ? TRPCQueryProcedure<{ input: InputOf<Op>; output: OutputOf<Op>; meta: object }>
  : TRPCMutationProcedure<{ input: InputOf<Op>; output: OutputOf<Op>; meta: object }>;

type ProceduresOf<G> = { [K in keyof G]: ProcedureOf<G[K]> };
type Routers = { [G in keyof typeof operationGroups]: ProceduresOf<(typeof operationGroups)[G]> };

function procedureOf(op: AnyOperation) {
  // The role (or a key's scopes) before the input is read (docs/product.md §5 check order), as over REST.
  const withInput = protectedProcedure
    .use(({ ctx, next }) => {
      assertMayCall(ctx.verbCtx, op.scope);
      return next();
    })
    .input(op.input);
  const resolve = ({ ctx, input }: { ctx: { verbCtx: Parameters<AnyOperation['verb']>[0]['ctx'] }; input: unknown }) => op.verb({ ctx: ctx.verbCtx, input });
  return op.kind === 'query' ? withInput.query(resolve) : withInput.mutation(resolve);
}

const routers = Object.fromEntries(
  Object.entries(operationGroups).map(([group, ops]: [string, OperationGroup]) => [
    group,
    Object.fromEntries(Object.entries(ops).map(([name, op]) => [name, procedureOf(op)])),
  ]),
) as unknown as Routers;

export const appRouter = createTRPCRouter(routers);

export type AppRouter = typeof appRouter;

/** Server-side caller (React Server Components, tests) with an explicit context. */
export const createCaller = createCallerFactory(appRouter);
