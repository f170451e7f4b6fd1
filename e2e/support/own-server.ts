/**
 * A production server of a spec file's own (issue 20): one embedded PostgreSQL with the demo
 * fleet and one `next start` of the build in `.next` (scripts/stress/fleet.ts, as the storm
 * starts its instances), for tests that stop the server or spend budgets every test of the
 * shared server would feel. Its port is `E2E_OWN_PORT` when set (a machine shared with other
 * runs keeps each run in its own range), else a free one the system picks.
 */
import { test } from '@playwright/test';
import { seedFleet, startDatabase, startInstances, stopInstances, type Database, type Instance } from '../../scripts/stress/fleet';

export type OwnServer = {
  /** The embedded database, seeded with the demo fleet. */
  database: Database;
  /** The one instance, in an array so `restartInstance` can put its successor in its place. */
  instances: Instance[];
  /** `http://127.0.0.1:<port>` of the instance. */
  base: string;
  /** One API key per demo org. */
  keys: Record<string, string>;
};

/** The port of the file's own server: `E2E_OWN_PORT`, else undefined (a free one). */
export function ownServerPort(): number | undefined {
  const port = Number(process.env.E2E_OWN_PORT);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * Starts the file's own server before its tests and stops it after them (beforeAll / afterAll).
 * @returns the server, filled once beforeAll has run (read it inside tests).
 */
export function useOwnServer(): OwnServer {
  const server = { instances: [], base: '', keys: {} } as unknown as OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server.database = await startDatabase();
    server.keys = (await seedFleet(server.database.db)).keys;
    await startInstances(1, server.database.pg.url, server.instances, {}, ownServerPort());
    server.base = server.instances[0]!.base;
  });
  test.afterAll(async () => {
    await stopInstances(server.instances);
    await server.database?.close().catch(() => {});
    await server.database?.pg.stop();
  });
  return server;
}
