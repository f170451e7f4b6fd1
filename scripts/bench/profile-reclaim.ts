/**
 * `npx tsx scripts/bench/profile-reclaim.ts [--n 3000] [--concurrency 8] [--scenario reclaim|floor|dry]`:
 * where a reclaim's time goes (issue 26). One embedded PostgreSQL with pg_stat_statements
 * (planning tracked too), the 100-node fleet and `n` reclaim fixtures, one `next start`; fires
 * the scenario once per fixture and prints, per statement, calls, planning and execution time
 * per call, WAL bytes and buffers per call — and the CPU seconds the app process and the
 * database spent per request (and how much of it in the kernel), and the app's by thread (its main
 * thread, and the helpers: GC, libuv); and, per table, the rows inserted, updated (how many as HOT
 * updates, which write no index entry) and deleted per request.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { createFleet, resetStatements, startCluster, startInstance, stopInstance, FIRST_APP_PORT, type Cluster } from './stage';
import { buildFixtures, dropFixtures, fixtureNode, fixtureRequest } from './fixtures';
import { runLoad } from './load';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '8' }, scenario: { type: 'string', default: 'reclaim' } },
});
const n = Number(values.n);
const concurrency = Number(values.concurrency);

/** A `/proc/…/stat` line: the name between its parentheses, and its user and system CPU seconds. */
function readStat(path: string): { comm: string; user: number; system: number } {
  const stat = fs.readFileSync(path, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), user: Number(f[11]) / 100, system: Number(f[12]) / 100 };
}

/** The process ids under /proc. */
const processIds = () => fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));

/** CPU seconds (user + system, and system alone) of every process `match` picks. */
function cpuOf(match: (cmd: string, comm: string) => boolean): { total: number; system: number } {
  let total = 0;
  let system = 0;
  for (const p of processIds()) {
    try {
      const stat = readStat(`/proc/${p}/stat`);
      if (!match(fs.readFileSync(`/proc/${p}/cmdline`, 'utf8'), stat.comm)) continue;
      total += stat.user + stat.system;
      system += stat.system;
    } catch {
      // gone
    }
  }
  return { total, system };
}

/** CPU seconds of each thread of the app's processes, by thread name: the main thread and its helpers (GC, libuv). */
function threadsOfApp(): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of processIds()) {
    try {
      if (!readStat(`/proc/${p}/stat`).comm.startsWith('next-server')) continue;
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const stat = readStat(`/proc/${p}/task/${t}/stat`);
        const name = t === p ? 'main' : stat.comm;
        out.set(name, (out.get(name) ?? 0) + stat.user + stat.system);
      }
    } catch {
      // gone
    }
  }
  return out;
}

/** Rows inserted, updated (HOT among them) and deleted so far, by table of the fleet's database. */
async function tableWrites(): Promise<Map<string, { ins: number; upd: number; hot: number; del: number }>> {
  const rows = await fleet.db.execute<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
    sql`select relname, n_tup_ins::text as ins, n_tup_upd::text as upd, n_tup_hot_upd::text as hot, n_tup_del::text as del from pg_stat_user_tables`,
  );
  return new Map(rows.map((t) => [t.relname, { ins: Number(t.ins), upd: Number(t.upd), hot: Number(t.hot), del: Number(t.del) }]));
}

const cluster: Cluster = await startCluster();
await cluster.admin.unsafe('alter system set pg_stat_statements.track_planning = on');
await cluster.admin.unsafe('select pg_reload_conf()');
const fleet = await createFleet(cluster, 100);
const instance = await startInstance(FIRST_APP_PORT, fleet.url, []);
try {
  const key = fleet.keys.org_acme!;
  const scenario = values.scenario as 'floor' | 'reclaim' | 'dry';
  const request = (batch: string) => (i: number) => fixtureRequest(key, fixtureNode(batch, i), scenario);
  // Warm-up: every connection of the pool prepares its statements.
  await buildFixtures(fleet.db, 'warm', 200);
  await runLoad(instance.base, { concurrency, amount: 200, expect: 200, request: request('warm') });
  await dropFixtures(fleet.db);
  await buildFixtures(fleet.db, 'p', n);
  await resetStatements(cluster);
  await cluster.admin.unsafe('create extension if not exists pg_walinspect');
  const [{ lsn: lsn0 } = { lsn: '0/0' }] = await cluster.admin.unsafe<{ lsn: string }[]>('select pg_current_wal_lsn()::text as lsn');
  const tables0 = await tableWrites();
  const threads0 = threadsOfApp();
  const app0 = cpuOf((cmd, comm) => comm.startsWith('next-server'));
  const pg0 = cpuOf((_cmd, comm) => comm === 'postgres');
  const r = await runLoad(instance.base, { concurrency, amount: n, expect: 200, request: request('p') });
  const threads1 = threadsOfApp();
  const app1 = cpuOf((cmd, comm) => comm.startsWith('next-server'));
  const pg1 = cpuOf((_cmd, comm) => comm === 'postgres');
  console.log(
    `${values.scenario}: ${r.requests} requests in ${r.seconds.toFixed(1)} s, ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, unexpected ${JSON.stringify(r.unexpected)} ${r.sample ?? ''}`,
  );
  const perRequest = (a: number, b: number) => (((b - a) / r.requests) * 1000).toFixed(2);
  console.log(
    `CPU per request: app ${perRequest(app0.total, app1.total)} ms (system ${perRequest(app0.system, app1.system)}), PostgreSQL ${perRequest(pg0.total, pg1.total)} ms (system ${perRequest(pg0.system, pg1.system)})`,
  );
  console.log(
    `app threads per request: ${[...threads1]
      .map(([name, t]) => [name, ((t - (threads0.get(name) ?? 0)) / r.requests) * 1000] as const)
      .filter(([, ms]) => ms >= 0.01)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`)
      .join(', ')}`,
  );
  const [{ lsn: lsn1 } = { lsn: '0/0' }] = await cluster.admin.unsafe<{ lsn: string }[]>('select pg_current_wal_lsn()::text as lsn');
  const wal = await cluster.admin.unsafe<{ record_type: string; count: string; record_size: string; fpi_size: string }[]>(
    `select "resource_manager/record_type" as record_type, count::text, record_size::text, fpi_size::text from pg_get_wal_stats($1::pg_lsn, $2::pg_lsn, true)
     where count > 0 order by combined_size desc limit 15`,
    [lsn0, lsn1],
  );
  for (const w of wal)
    console.log(
      `wal ${w.record_type.padEnd(28)} ${(Number(w.count) / r.requests).toFixed(2).padStart(7)}/req  records ${(Number(w.record_size) / r.requests).toFixed(0).padStart(6)} B/req  fpi ${(Number(w.fpi_size) / r.requests).toFixed(0).padStart(6)} B/req`,
    );
  const rows = await cluster.admin.unsafe<
    { calls: string; plan: number; exec: number; wal: string; hit: string; read: string; dirtied: string; rows: string; query: string }[]
  >(
    `select calls::text, total_plan_time / calls as plan, total_exec_time / calls as exec, (wal_bytes / calls)::int::text as wal,
       (shared_blks_hit / calls)::int::text as hit, (shared_blks_read / calls)::int::text as read, (shared_blks_dirtied::numeric / calls)::numeric(8,1)::text as dirtied,
       (rows / calls)::text as rows, query
     from pg_stat_statements where dbid = (select oid from pg_database where datname = $1) and query not ilike '%pg_stat_statements%'
     order by total_exec_time + total_plan_time desc limit 12`,
    [fleet.database],
  );
  for (const q of rows)
    console.log(
      `${q.calls.padStart(6)} calls  plan ${q.plan.toFixed(3)} ms  exec ${q.exec.toFixed(3)} ms  wal ${q.wal} B  hit ${q.hit} read ${q.read} dirtied ${q.dirtied}  rows ${q.rows}  ${q.query.replace(/\s+/g, ' ').slice(0, 160)}`,
    );
  // Backends flush their table statistics once idle for a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const tables1 = await tableWrites();
  for (const [table, after] of tables1) {
    const before = tables0.get(table) ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const per = (k: keyof typeof after) => (after[k] - before[k]) / r.requests;
    if (per('ins') + per('upd') + per('del') < 0.01) continue;
    console.log(
      `table ${table.padEnd(22)} inserts ${per('ins').toFixed(2).padStart(6)}/req  updates ${per('upd').toFixed(2).padStart(6)}/req (HOT ${per('hot').toFixed(2)})  deletes ${per('del').toFixed(2)}/req`,
    );
  }
  console.log(`server stderr (last chunks): ${instance.stderr.join('').slice(-3000)}`);
} finally {
  await stopInstance(instance);
  await fleet.close();
  await cluster.admin.end();
  await cluster.pg.stop();
}
