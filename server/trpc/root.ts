import { createCallerFactory, createTRPCRouter } from './init';
import { nodesRouter } from './routers/nodes';
import { reservationsRouter } from './routers/reservations';

export const appRouter = createTRPCRouter({
  nodes: nodesRouter,
  reservations: reservationsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (React Server Components, tests) with an explicit context. */
export const createCaller = createCallerFactory(appRouter);
