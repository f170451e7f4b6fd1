import { createCallerFactory, createTRPCRouter } from './init';
import { apiKeysRouter } from './routers/api-keys';
import { auditRouter } from './routers/audit';
import { nodesRouter } from './routers/nodes';
import { orgsRouter } from './routers/orgs';
import { reservationsRouter } from './routers/reservations';
import { signInsRouter } from './routers/sign-ins';
import { vmsRouter } from './routers/vms';

export const appRouter = createTRPCRouter({
  nodes: nodesRouter,
  reservations: reservationsRouter,
  vms: vmsRouter,
  audit: auditRouter,
  orgs: orgsRouter,
  apiKeys: apiKeysRouter,
  signIns: signInsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (React Server Components, tests) with an explicit context. */
export const createCaller = createCallerFactory(appRouter);
