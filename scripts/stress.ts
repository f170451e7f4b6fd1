/**
 * `npm run stress -- --seconds 60 --clients 32 --instances 2`: the storm of docs/product.md §8 R1.
 *
 * Starts a throwaway PostgreSQL (demo seed, plus two storm nodes with reservations that begin
 * and end during the run), N production app instances sharing it, signs console users in, and
 * lets `--clients` concurrent clients drive the random mix of scripts/stress/mix.ts through the
 * REST API and tRPC until `--seconds` pass or `--max-requests` are sent. It checks every
 * invariant (server/testing/invariants.ts) every few seconds while it runs and once after, then
 * every acknowledged write against the database, prints the figures, and exits 1 on any
 * violation, 5xx, request without an answer, lost write or differing idempotent replay.
 *
 * Needs a production build in `.next` (`next build`); `--build` makes one when there is none.
 * `--schedules 50` runs scheduled reclaims instead (scripts/stress/schedules.ts): lateness and exactly-once.
 * Options: --seconds (60) --clients (32) --instances (2) --max-requests (1000 × seconds)
 * --seed (random; printed, replays the same choices) --build --port (the first instance's port,
 * the next ones follow; free ports when omitted).
 *
 * Faults (docs/reliability.md): `--kill-instance` kills one instance with SIGKILL at 15 % of the
 * run and starts a fresh one on its port; `--db-outage` stops PostgreSQL at 35 % for
 * `--outage-seconds` (30) and starts it again; `--faults` does both. A 503 counts as acceptable
 * only during the outage (plus 2 s for reconnects), no answer only from the killed instance
 * while it is down; writes that got either are retried afterwards with their Idempotency-Key.
 * `--receiver-outage` (also in `--faults`): the webhook receiver answers 503 for `--outage-seconds`
 * from half-way. Always: webhook endpoints of four orgs, whose deliveries must match their feeds
 * after the run — every event, in order, duplicates only with the same webhook-id.
 * `--pgbouncer`: the instances reach PostgreSQL through a local PgBouncer in transaction mode,
 * with prepared statements off (exit 2 when pgbouncer is not installed).
 */
import { sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/seed';
import { checkInvariants, type Violation } from '../server/testing/invariants';
import { verifyAcks, type Ack } from './stress/acks';
import {
  buildApp,
  hasProductionBuild,
  killInstance,
  restartInstance,
  seedFleet,
  startDatabase,
  startInstances,
  stopInstances,
  type Database,
  type Instance,
} from './stress/fleet';
import { rest, signIn, type Session } from './stress/http';
import { PLATFORM, refreshNode, retryUnanswered, runClient, World, type StormContext } from './stress/mix';
import { Faults } from './stress/faults';
import { findPgBouncer, startPgBouncer, type PgBouncer } from './stress/pgbouncer';
import { printReport, Stats } from './stress/report';
import { WebhookWatch } from './stress/webhooks';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '32' },
    instances: { type: 'string', default: '2' },
    'max-requests': { type: 'string' },
    seed: { type: 'string' },
    build: { type: 'boolean', default: false },
    faults: { type: 'boolean', default: false },
    'kill-instance': { type: 'boolean', default: false },
    'db-outage': { type: 'boolean', default: false },
    'outage-seconds': { type: 'string', default: '30' },
    'receiver-outage': { type: 'boolean', default: false },
    pgbouncer: { type: 'boolean', default: false },
    port: { type: 'string' },
    schedules: { type: 'string' },
  },
  strict: true,
});

// `--schedules N`: the scheduled-reclaim run instead of the storm (scripts/stress/schedules.ts).
if (args.schedules !== undefined) {
  if (!hasProductionBuild()) {
    if (!args.build) {
      console.error('The schedule run uses the production build, and .next holds none. Run `npx next build` first, or pass --build.');
      process.exit(2);
    }
    buildApp();
  }
  const count = Number(args.schedules);
  if (!Number.isInteger(count) || count < 1 || count > 500) {
    console.error(`--schedules must be an integer from 1 to 500, not ${JSON.stringify(args.schedules)}`);
    process.exit(2);
  }
  const { runScheduleStress } = await import('./stress/schedules');
  process.exit((await runScheduleStress(count)) ? 0 : 1);
}

const positive = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer, not ${JSON.stringify(v)}`);
    process.exit(2);
  }
  return n;
};
const seconds = positive('seconds', args.seconds);
const clients = positive('clients', args.clients);
const instanceCount = positive('instances', args.instances);
const maxRequests = positive('max-requests', args['max-requests'] ?? String(1000 * seconds));
const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : positive('seed', args.seed);
const killOne = args.faults || args['kill-instance'];
const outage = args.faults || args['db-outage'];
const outageSeconds = positive('outage-seconds', args['outage-seconds']);
const receiverOutage = args.faults || args['receiver-outage'];
if (outage && seconds < outageSeconds / 0.65 + 5) {
  console.error(
    `--db-outage stops PostgreSQL at 35 % of the run for ${outageSeconds} s and needs time after it: pass --seconds ${Math.ceil(outageSeconds / 0.65 + 5)} or more.`,
  );
  process.exit(2);
}
if (killOne && instanceCount < 2) {
  console.error('--kill-instance needs --instances 2 or more: the others carry the storm while one is down.');
  process.exit(2);
}
if (args.pgbouncer && !findPgBouncer()) {
  console.error(
    '--pgbouncer needs PgBouncer, and none is installed (looked at PGBOUNCER_PATH, on PATH and in /usr/sbin): install the `pgbouncer` package (Debian/Ubuntu: apt-get install pgbouncer), or run the storm without --pgbouncer.',
  );
  process.exit(2);
}

if (!hasProductionBuild()) {
  if (!args.build) {
    console.error('The storm runs the production build, and .next holds none. Run `npx next build` first, or pass --build to build it now.');
    process.exit(2);
  }
  buildApp();
}

/** How often the invariants are checked while the storm runs. */
const CHECK_EVERY_MS = 5_000;

/** Demo users with console sessions, by the org they act as (one org each). */
const CONSOLE_USERS = ['olivia@platform.example', 'alice@acme.example', 'mark@helix.example', 'ana@nimbus.example', 'tom@orbit.example'];
/** The nodes the storm acts on: the demo's busy ones, and its own two. */
const NODES = ['acme-h100-01', 'acme-h100-02', 'borealis-a100-01', 'borealis-a100-02', 'storm-1', 'storm-2'];

/**
 * The storm's own nodes, written through the API: one with a reservation that begins a third
 * of the way in (over units spot VMs may be running on: legal, docs/product.md §5.3), one with a
 * reservation that ends halfway (its VMs keep running).
 */
async function addStormNodes(base: string, keys: Record<string, string>): Promise<void> {
  const at = (fraction: number) => new Date(Date.now() + fraction * seconds * 1000).toISOString();
  const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: `nvl-${Math.floor(i / 4)}` }));
  const must = async (org: string, method: string, path: string, body: unknown) => {
    const r = await rest(base, keys[org]!, method, path, body);
    if (r.status >= 300) throw new Error(`setup: ${method} ${path} as ${org} answered ${r.status} ${r.text}`);
  };
  const reservation = (nodeId: string, id: string, reservedUnitIds: string[], allowedOrgIds: string[], period: Record<string, string> = {}) =>
    must('org_acme', 'POST', `/v1/nodes/${nodeId}/reservations`, { id, reservedUnitIds, allowedOrgIds, managingOrgIds: ['org_helix'], ...period });
  for (const id of ['storm-1', 'storm-2']) await must(PLATFORM, 'POST', '/v1/nodes', { id, name: `Storm ${id}`, ownerOrgId: 'org_acme', units });
  await reservation('storm-1', 'res-storm-1', ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'], ['org_nimbus']);
  await reservation('storm-1', 'res-storm-1-later', ['gpu-6', 'gpu-7'], ['org_zephyr'], { startsAt: at(1 / 3) });
  await reservation('storm-2', 'res-storm-2-ending', ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], ['org_nimbus'], { endsAt: at(1 / 2) });
  await reservation('storm-2', 'res-storm-2', ['gpu-4', 'gpu-5', 'gpu-6', 'gpu-7'], ['org_quark', 'org_nimbus']);
  await must('org_helix', 'POST', '/v1/nodes/storm-1/reservations/res-storm-1/release', { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'] });
  await must('org_helix', 'POST', '/v1/nodes/storm-2/reservations/res-storm-2/release', { unitIds: ['gpu-4', 'gpu-5'] });
}

let database: Database | undefined;
let watch: WebhookWatch | undefined;
let bouncer: PgBouncer | undefined;
const instances: Instance[] = [];
let cleaningUp: Promise<void> | undefined;
const cleanup = () =>
  (cleaningUp ??= (async () => {
    await stopInstances(instances);
    await watch?.stop().catch(() => {});
    await bouncer?.stop().catch(() => {});
    await database?.close().catch(() => {});
    await database?.pg.stop().catch(() => {});
  })());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Where the instances connect: PostgreSQL itself, or a PgBouncer in transaction mode in front
 * of it — with prepared statements off (db/client.ts) and the direct URL for what needs a
 * session. Checks first that TimeZone, a startup parameter, survives PgBouncer's connection
 * sharing (it tracks it per client).
 */
async function instanceDatabase(pgUrl: string): Promise<{ url: string; env: Record<string, string>; note: string }> {
  if (!args.pgbouncer) return { url: pgUrl, env: {}, note: 'direct' };
  bouncer = await startPgBouncer(pgUrl);
  process.env.DATABASE_PREPARED_STATEMENTS = 'off';
  const { createDb } = await import('../db/client');
  const probe = createDb(bouncer.url, { max: 6 });
  try {
    const zones = await Promise.all(
      Array.from({ length: 12 }, () => probe.client`select current_setting('TimeZone') as tz, count(*)::int as named from pg_prepared_statements`),
    );
    const bad = zones.map((r) => r[0]!).filter((r) => r.tz !== 'UTC' || r.named !== 0);
    if (bad.length > 0) throw new Error(`through PgBouncer a session read ${JSON.stringify(bad)}: TimeZone must be UTC and no named statement prepared`);
  } finally {
    await probe.client.end();
    delete process.env.DATABASE_PREPARED_STATEMENTS;
  }
  return {
    url: bouncer.url,
    env: { DATABASE_PREPARED_STATEMENTS: 'off', DATABASE_DIRECT_URL: pgUrl },
    note: `through PgBouncer (transaction mode, ${bouncer.url.replace(/:[^:@/]+@/, ':…@')}, log ${bouncer.logFile})`,
  };
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

let passed = false;
try {
  const setupStarted = performance.now();
  const lap = (() => {
    let last = setupStarted;
    return (what: string) => {
      const now = performance.now();
      const text = `${what} ${((now - last) / 1000).toFixed(1)} s`;
      last = now;
      return text;
    };
  })();
  database = await startDatabase();
  const laps = [lap('PostgreSQL')];
  // The instances need the database only once requests come, so they boot while the seed runs.
  const target = await instanceDatabase(database.pg.url);
  const [{ keys, readKeys, seededAt }] = await Promise.all([
    seedFleet(database.db),
    // The webhook watch's receiver listens on loopback (scripts/stress/webhooks.ts).
    startInstances(
      instanceCount,
      target.url,
      instances,
      { ...target.env, WEBHOOKS_ALLOW_LOOPBACK: '1' },
      args.port === undefined ? undefined : positive('port', args.port),
    ),
  ]);
  laps.push(lap('seed and instances'));
  const bases = instances.map((i) => i.base);
  await addStormNodes(bases[0]!, keys);
  laps.push(lap('storm nodes'));

  const sessions: Record<string, Session> = {};
  await Promise.all(
    CONSOLE_USERS.map(async (email, i) => {
      const user = DEMO_USERS.find((u) => u.email === email)!;
      sessions[user.orgIds[0]] = await signIn(bases[i % bases.length]!, email, DEMO_PASSWORD);
    }),
  );
  // A viewer of Helix (docs/product.md §2 Roles), refused every action under load.
  const viewer = await signIn(bases[0]!, 'vera@helix.example', DEMO_PASSWORD);
  laps.push(lap('sign-ins'));
  // Webhook endpoints of the operator (every event), an owner, a managing org and a tenant, made
  // while nothing else writes: their deliveries are checked against their feeds after the storm.
  watch = new WebhookWatch(bases[0]!, keys, ['org_platform', 'org_acme', 'org_helix', 'org_orbit']);
  await watch.start();
  laps.push(lap('webhooks'));
  const seededUpdatedAt = new Map(
    [
      ...(await database.db.execute<{ node_id: string; id: string; updated_at: string }>(
        sql`select node_id, id, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from reservations`,
      )),
    ].map((r) => [`${r.node_id}\u0000${r.id}`, r.updated_at]),
  );

  const faults = killOne || outage || receiverOutage ? new Faults() : undefined;
  const stats = new Stats(faults);
  const acks: Ack[] = [];
  const ctx: StormContext = {
    bases,
    keys,
    sessions,
    world: new World(),
    acks,
    replayMismatches: [],
    readKeys,
    viewer,
    accessMismatches: [],
    record: (kind, reply) => stats.record(kind, reply),
    ...(faults ? { faults: { unanswered: [] } } : {}),
  };
  for (const nodeId of NODES) await refreshNode(ctx, bases[0]!, nodeId, false);
  console.log(
    `storm: ${seconds} s, ${clients} clients, ${instanceCount} instances (ports ${instances.map((i) => i.port).join(', ')}) ${target.note}, at most ${maxRequests} requests, seed ${seed}; set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s (${laps.join(', ')})` +
      (faults
        ? `; faults: ${[killOne && 'kill -9 of one instance at 15 %', outage && `PostgreSQL stopped for ${outageSeconds} s at 35 %`].filter(Boolean).join(', ')}`
        : ''),
  );

  const started = performance.now();
  const deadline = Date.now() + seconds * 1000;
  const until = () => Date.now() >= deadline || stats.requests >= maxRequests;
  // Invariants hold at every commit, not only at the end: check a snapshot every few seconds
  // too, so that a fault a later write repairs (a VM that ran where it must not, then ended)
  // is still caught.
  const found = new Map<string, Violation>();
  let checks = 0;
  /** While PostgreSQL is stopped there is nothing to check. */
  let databaseDown = false;
  const check = async () => {
    if (databaseDown) return;
    let violations: Violation[];
    try {
      violations = await checkInvariants(database!.db, { auditSince: seededAt });
    } catch (e) {
      if (databaseDown) return; // the outage began during the check
      throw e;
    }
    for (const v of violations) found.set(`${v.invariant}\u0000${v.message}`, v);
    checks += 1;
  };
  const injector = (async () => {
    if (!faults) return;
    const at = (fraction: number) => started + fraction * seconds * 1000;
    if (killOne) {
      await sleep(at(0.15) - performance.now());
      const victim = instances[instances.length - 1]!;
      const w = faults.open('kill', `kill -9 of the instance on port ${victim.port} mid-storm, then a fresh one on that port`, victim.base);
      await killInstance(victim);
      const t0 = performance.now();
      await restartInstance(instances, victim);
      w.note += `; up again after ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      faults.close(w);
    }
    if (outage) {
      await sleep(at(0.35) - performance.now());
      const w = faults.open('outage', `PostgreSQL stopped for ${outageSeconds} s mid-storm, then started again on the same data and port`);
      databaseDown = true;
      await database!.pg.halt();
      await sleep(outageSeconds * 1000);
      await database!.pg.resume();
      databaseDown = false;
      faults.close(w);
    }
    if (receiverOutage) {
      await sleep(at(0.5) - performance.now());
      const w = faults.open('receiver', `the webhook receiver down (503) for ${outageSeconds} s mid-storm`);
      watch!.setDown(true);
      await sleep(outageSeconds * 1000);
      watch!.setDown(false);
      faults.close(w);
    }
  })();
  let checkFailed: unknown;
  const checker = (async () => {
    for (let next = Date.now() + CHECK_EVERY_MS; !until(); await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() < next) continue;
      await check();
      next = Date.now() + CHECK_EVERY_MS;
    }
  })().catch((e: unknown) => {
    checkFailed = e;
  });
  await Promise.all(Array.from({ length: clients }, (_, i) => runClient(ctx, i, seed + i, until)));
  const elapsed = (performance.now() - started) / 1000;
  await checker;
  await injector;
  if (checkFailed) throw checkFailed;

  const retried = faults ? await retryUnanswered(ctx, instances[0]!.base) : undefined;
  const lost = await verifyAcks(database.db, acks, seededUpdatedAt);
  // Every event of the watched orgs delivered, in their feeds' order (a retry after an outage
  // waits up to an hour's backoff cap in principle; here at most a few tens of seconds).
  const hooks = await watch.verify(180_000);
  await check();
  const violations = [...found.values()];
  const header = `storm results: ${seconds} s × ${clients} clients × ${instanceCount} instances, seed ${seed}; invariants checked ${checks} times (every ${CHECK_EVERY_MS / 1000} s and at the end)`;
  passed = printReport(
    stats,
    {
      violations,
      lost,
      replayMismatches: ctx.replayMismatches,
      accessMismatches: ctx.accessMismatches,
      acks,
      extra: [...(retried?.lines ?? []), ...hooks.lines, ...hooks.failures.map((f) => `  ${f}`)],
      failures: (retried?.failures ?? 0) + hooks.failures.length,
    },
    header,
    elapsed,
  );
  if (stats.serverErrors > 0 || stats.noAnswer > 0) {
    for (const i of instances) {
      const log = i.stderr.join('').trim();
      if (log) console.log(`\nstderr of the instance on port ${i.port} (last lines):\n${log.split('\n').slice(-40).join('\n')}`);
    }
  }
} catch (e) {
  console.error('storm aborted:', e);
} finally {
  await cleanup();
}
process.exit(passed ? 0 : 1);
