/**
 * The storm's stage: a throwaway embedded PostgreSQL under the system temp folder, migrated
 * and seeded with the demo fleet (docs/product.md §7), and N production app instances on free
 * ports sharing it — each a `next start` of the build in `.next`, as e2e/support/serve.ts
 * starts one for Playwright.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../db/client';
import { findFreePort, makeTempDataDir, startEmbeddedPostgres, type EmbeddedServer } from '../../db/embedded';
import { migrateDatabase } from '../../db/migrate';
import { issueApiKey } from '../../server/api-keys/internal';
import { seedDemoFleet } from '../../server/demo';
import { appServerEnv } from '../../server/auth/password-checks';

const NEXT_BIN = path.join('node_modules', '.bin', 'next');

/** True when `.next` holds a production build (`next build` writes BUILD_ID; `next dev` does not). */
export function hasProductionBuild(): boolean {
  return fs.existsSync(path.join('.next', 'BUILD_ID'));
}

/** Runs `next build` in the foreground. @throws Error when it fails. */
export function buildApp(): void {
  const r = spawnSync(NEXT_BIN, ['build'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
}

export type Database = {
  pg: EmbeddedServer;
  db: Db;
  close: () => Promise<void>;
};

/** Starts PostgreSQL and applies the migrations. */
export async function startDatabase(): Promise<Database> {
  const pg = await startEmbeddedPostgres({ dir: makeTempDataDir('gpu-storm-pg'), persistent: false, fast: true });
  try {
    await migrateDatabase(pg.url);
  } catch (e) {
    await pg.stop();
    throw e;
  }
  const { db, client } = createDb(pg.url, { max: 4 });
  return { pg, db, close: () => client.end() };
}

/**
 * Seeds the demo fleet.
 * @returns the demo API key of every demo org, and the database's clock right after the seed:
 *   every change from then on is the storm's.
 */
export async function seedFleet(db: Db): Promise<{ keys: Record<string, string>; readKeys: Record<string, string>; seededAt: Date }> {
  const keys = await seedDemoFleet(db, new Date());
  // A `read`-only key per org (docs/product.md §2 Scopes): the storm reads with them, and is refused writing.
  const readKeys: Record<string, string> = {};
  for (const orgId of Object.keys(keys))
    readKeys[orgId] = (await issueApiKey(db, { orgId, name: 'storm read-only', now: new Date(), scopes: ['read'] })).secret;
  const [row] = await db.execute<{ now: string }>(sql`select now()::text as now`);
  return { keys, readKeys, seededAt: new Date(row!.now) };
}

export type Instance = { port: number; base: string; child: ChildProcess; stderr: string[]; env: NodeJS.ProcessEnv };

/** Spawns one `next start` on `port` (in its own process group, so a kill reaches all of it). */
function spawnInstance(port: number, env: NodeJS.ProcessEnv, stderr: string[] = []): Instance {
  const child = spawn(NEXT_BIN, ['start', '-p', String(port), '-H', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'], env, detached: true });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 400) stderr.shift();
  });
  return { port, base: `http://127.0.0.1:${port}`, child, stderr, env };
}

/**
 * Starts `count` production instances on free loopback ports, all on `databaseUrl` with one
 * AUTH_SECRET (so a session cookie works on each) and the rate limit off (docs/product.md §8 R5:
 * the storm measures the product, not the limiter), and waits until each answers.
 * @param instances filled as they are spawned, so the caller can stop them whatever happens.
 * @param extraEnv more settings for every instance (the PgBouncer run's).
 * @param firstPort ports firstPort, firstPort + 1, …; free ones when omitted.
 * @throws Error when one exits or does not answer within 90 s.
 */
export async function startInstances(
  count: number,
  databaseUrl: string,
  instances: Instance[],
  extraEnv: Record<string, string> = {},
  firstPort?: number,
): Promise<void> {
  const secret = randomBytes(32).toString('hex');
  const env = appServerEnv({
    ...process.env,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: secret,
    AUTH_TRUST_HOST: 'true',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '0',
    NODE_ENV: 'production' as const,
    ...extraEnv,
  });
  for (let i = 0; i < count; i++) instances.push(spawnInstance(firstPort ? firstPort + i : await findFreePort(), env));
  await Promise.all(instances.map(waitUntilUp));
}

/**
 * `kill -9` of an instance (its whole process group): no shutdown, connections cut mid-request.
 * @returns once it has exited.
 */
export async function killInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => instance.child.once('exit', () => resolve()));
  process.kill(-instance.child.pid!, 'SIGKILL');
  await exited;
}

/**
 * Starts a fresh instance in a killed one's place: same port, same settings; waits until it answers.
 * @param env settings to change (a new `NEXT_DEPLOYMENT_ID`: a deploy, as an open page sees it).
 */
export async function restartInstance(instances: Instance[], killed: Instance, env: Record<string, string> = {}): Promise<Instance> {
  const fresh = spawnInstance(killed.port, { ...killed.env, ...env }, killed.stderr);
  instances[instances.indexOf(killed)] = fresh;
  await waitUntilUp(fresh);
  return fresh;
}

async function waitUntilUp(instance: Instance): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null)
      throw new Error(`the instance on port ${instance.port} exited (${instance.child.exitCode}): ${instance.stderr.join('').slice(-2000)}`);
    try {
      const res = await fetch(`${instance.base}/v1/openapi.json`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the instance on port ${instance.port} did not answer within 90 s`);
}

/** Stops the instances (SIGTERM, then SIGKILL after 10 s) and waits for them to exit. */
export async function stopInstances(instances: readonly Instance[]): Promise<void> {
  await Promise.all(
    instances.map(
      (i) =>
        new Promise<void>((resolve) => {
          if (i.child.exitCode !== null || i.child.signalCode !== null) return resolve();
          const signal = (sig: NodeJS.Signals) => {
            try {
              process.kill(-i.child.pid!, sig);
            } catch {
              // already gone
            }
          };
          const force = setTimeout(() => signal('SIGKILL'), 10_000);
          i.child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          signal('SIGTERM');
        }),
    ),
  );
}
