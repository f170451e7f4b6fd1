/**
 * The benchmark's stage: one embedded PostgreSQL with pg_stat_statements loaded, one database
 * per fleet size (migrated, the demo seed, then the bulk fleet of db/fleet.ts), and one
 * production `next start` per database with the floor route enabled and the rate limit off
 * (docs/product.md §8 R5: a benchmark measures the product, not the limiter).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../db/client';
import { makeTempDataDir, startEmbeddedPostgres, type EmbeddedServer } from '../../db/embedded';
import { generateFleet, type FleetCounts } from '../../db/fleet';
import { migrateDatabase } from '../../db/migrate';
import { DEMO_PASSWORD } from '../../db/seed';
import { seedDemoFleet } from '../../server/demo';
import { signIn, type Session } from '../stress/http';
import { appServerEnv } from '../../server/auth/password-checks';

/**
 * The bench's ten ports start at `BENCH_PORT` (3240 unless set, so that a run beside another on
 * the same machine can take a range of its own): app instances from the first, PostgreSQL on the last.
 */
const BENCH_PORT = Number(process.env.BENCH_PORT ?? 3240);
export const PG_PORT = BENCH_PORT + 9;
export const FIRST_APP_PORT = BENCH_PORT;

export type Cluster = { pg: EmbeddedServer; admin: postgres.Sql; version: string };

/**
 * Starts PostgreSQL with pg_stat_statements counting top-level statements, utility ones too.
 * Statements per request count SELECT/INSERT/UPDATE/DELETE only: pg_stat_statements counts BEGIN
 * once per transaction but COMMIT only about one time in ten, so counting utility statements
 * would make the figure noisy. Round trips per request add two per BEGIN (it, and its COMMIT or
 * ROLLBACK). Issue 10's counts include both (its reclaim "14 statements" are 12 here).
 */
export async function startCluster(): Promise<Cluster> {
  const pg = await startEmbeddedPostgres({
    dir: makeTempDataDir('gpu-bench-pg'),
    port: PG_PORT,
    persistent: false,
    settings: [
      'shared_preload_libraries=pg_stat_statements',
      'pg_stat_statements.track_utility=on',
      'pg_stat_statements.max=10000',
      'shared_buffers=512MB',
      'max_wal_size=4GB',
    ],
  });
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create extension if not exists pg_stat_statements');
  const [v] = await admin.unsafe<{ server_version: string }[]>('show server_version');
  return { pg, admin, version: v!.server_version };
}

export type Fleet = {
  nodes: number;
  database: string;
  url: string;
  db: Db;
  close: () => Promise<void>;
  keys: Record<string, string>;
  counts: FleetCounts;
  generatedSeconds: number;
};

/** A database of the demo seed plus `nodes` bulk nodes (none beyond the seed's 16 when 0). */
export async function createFleet(cluster: Cluster, nodes: number): Promise<Fleet> {
  const database = `bench_${nodes}`;
  await cluster.admin.unsafe(`create database ${database}`);
  const u = new URL(cluster.pg.url);
  u.pathname = `/${database}`;
  const url = u.toString();
  await migrateDatabase(url);
  const { db, client } = createDb(url, { max: 2 });
  const keys = await seedDemoFleet(db, new Date());
  const [clock] = await db.execute<{ now: string }>(sql`select now()::text as now`);
  const started = performance.now();
  const counts = await generateFleet(db, { nodes, now: new Date(clock!.now) });
  return { nodes, database, url, db, close: () => client.end(), keys, counts, generatedSeconds: (performance.now() - started) / 1000 };
}

export type Instance = { port: number; base: string; child: ChildProcess; stderr: string[]; sessions: Record<string, Session> };

/**
 * Starts `next start` (the build in `.next`) on `port` against `url`, waits until it answers,
 * and signs in the console users the scenarios act as.
 * @throws Error when it exits or does not answer within 120 s.
 */
export async function startInstance(port: number, url: string, emails: readonly string[]): Promise<Instance> {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=.data/bench/profiles`): node flags for the
  // server, which NODE_OPTIONS refuses for profiling; the profile is written when it stops.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const options: SpawnOptions = {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: appServerEnv({
      ...process.env,
      DATABASE_URL: url,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      AUTH_TRUST_HOST: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_ORG_PER_MINUTE: '0',
      BENCH_FLOOR: '1',
      // The events figures' webhook receiver listens on loopback (scripts/bench/events.ts).
      WEBHOOKS_ALLOW_LOOPBACK: '1',
      NODE_ENV: 'production' as const,
    }),
  };
  const child = nodeArgs.length
    ? spawn(process.execPath, [...nodeArgs, path.join('node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port), '-H', '127.0.0.1'], options)
    : spawn(path.join('node_modules', '.bin', 'next'), ['start', '-p', String(port), '-H', '127.0.0.1'], options);
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 200) stderr.shift();
  });
  const instance: Instance = { port, base: `http://127.0.0.1:${port}`, child, stderr, sessions: {} };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start on ${port} exited (${child.exitCode}): ${stderr.join('').slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`next start on ${port} did not answer within 120 s`);
    try {
      const res = await fetch(`${instance.base}/v1/openapi.json`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  for (const email of emails) instance.sessions[email] = await signIn(instance.base, email, DEMO_PASSWORD);
  return instance;
}

/** Stops an instance (SIGTERM, SIGKILL after 10 s) and waits for it. */
export async function stopInstance(i: Instance): Promise<void> {
  if (i.child.exitCode !== null || i.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => i.child.kill('SIGKILL'), 10_000);
    i.child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    i.child.kill('SIGTERM');
  });
}

/** Forgets every statement counted so far (cluster-wide). */
export async function resetStatements(cluster: Cluster): Promise<void> {
  await cluster.admin.unsafe('select pg_stat_statements_reset()');
}

/**
 * Statements executed in `database` since the last reset, the bench's own reading excluded: their
 * total, the round trips (statements plus each transaction's BEGIN and COMMIT), and calls per query text.
 */
export async function countStatements(
  cluster: Cluster,
  database: string,
): Promise<{ total: number; roundTrips: number; queries: { calls: number; query: string }[] }> {
  const rows = await cluster.admin.unsafe<{ calls: string; query: string }[]>(
    `select calls::text as calls, query from pg_stat_statements
     where dbid = (select oid from pg_database where datname = $1) and query not ilike '%pg_stat_statements%'
     order by calls desc, query`,
    [database],
  );
  const all = rows.map((r) => ({ calls: Number(r.calls), query: r.query }));
  const queries = all.filter((q) => /^\s*(select|insert|update|delete|with)\b/i.test(q.query));
  const begins = all.filter((q) => /^\s*(begin|start transaction)\b/i.test(q.query)).reduce((n, q) => n + q.calls, 0);
  const total = queries.reduce((n, q) => n + q.calls, 0);
  return { total, roundTrips: total + 2 * begins, queries };
}
