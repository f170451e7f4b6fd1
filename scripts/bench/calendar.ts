/**
 * `npx tsx scripts/bench/calendar.ts`: the fleet calendar's verb (docs/product.md §5.8 "Fleet
 * calendar") timed on bench fleets of 100 and 10,000 nodes (scripts/bench/stage.ts: its fixed
 * PostgreSQL port — check that no other bench runs), per persona and filter, with its statements
 * per call (pg_stat_statements) and the `EXPLAIN (ANALYZE, BUFFERS)` of an audience org's page at
 * the largest fleet. Figures in docs/performance.md "The fleet calendar".
 */
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../../db/schema';
import { listReservationCalendar } from '../../server/reservations/calendar';
import { createFleet, resetStatements, startCluster } from './stage';

const sizes = [100, 10000];
const runs = 30;
const now = new Date();
const day = 86_400_000;
const variants = [
  { name: 'operator, 7 d, 20 nodes', orgId: 'org_platform', input: { limit: 20, from: new Date(now.getTime() - day), to: new Date(now.getTime() + 6 * day) } },
  {
    name: 'audience Nimbus, 30 d, 20 nodes',
    orgId: 'org_nimbus',
    input: { limit: 20, from: new Date(now.getTime() - 3 * day), to: new Date(now.getTime() + 27 * day) },
  },
  {
    name: 'spot tenant Orbit, 7 d, 100 nodes',
    orgId: 'org_orbit',
    input: { limit: 100, from: new Date(now.getTime() - day), to: new Date(now.getTime() + 6 * day) },
  },
  {
    name: 'operator, owner=borealis, 7 d',
    orgId: 'org_platform',
    input: { limit: 20, owner: 'borealis', from: new Date(now.getTime() - day), to: new Date(now.getTime() + 6 * day) },
  },
  {
    name: 'Helix relation=manages, 7 d',
    orgId: 'org_helix',
    input: { limit: 20, relation: 'manages' as const, from: new Date(now.getTime() - day), to: new Date(now.getTime() + 6 * day) },
  },
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cluster = await startCluster();
const out: string[] = [];
try {
  for (const nodes of sizes) {
    const fleet = await createFleet(cluster, nodes);
    const client = postgres(fleet.url, { max: 4, onnotice: () => {}, connection: { TimeZone: 'UTC' } });
    let log: { query: string; params: unknown[] }[] = [];
    const db = drizzle(client, { schema, logger: { logQuery: (query, params) => log.push({ query, params }) } });
    await client.unsafe('analyze');
    for (const v of variants) {
      const ctx = { orgId: v.orgId, actor: { kind: 'apiKey', apiKeyId: 'bench' }, via: 'console', db, now } as const;
      for (let i = 0; i < 5; i++) await listReservationCalendar({ ctx, input: v.input });
      await resetStatements(cluster);
      const times: number[] = [];
      let bars = 0;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const p = await listReservationCalendar({ ctx, input: v.input });
        times.push(performance.now() - t);
        bars = p.items.reduce((n, x) => n + x.reservations.length, 0);
      }
      const [calls] = await cluster.admin.unsafe<{ n: string }[]>(
        `select coalesce(sum(calls), 0)::text as n from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = '${fleet.database}'`,
      );
      out.push(`| ${v.name} | ${nodes} | ${median(times).toFixed(2)} | ${(Number(calls!.n) / runs).toFixed(1)} | ${bars} |`);
      if (nodes === 10000 && v.name.startsWith('audience')) {
        log = [];
        await listReservationCalendar({ ctx, input: v.input });
        for (const q of log) {
          const rows = await client.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${q.query}`, q.params as never[]);
          out.push('```\n' + rows.map((r) => r['QUERY PLAN']).join('\n') + '\n```');
        }
      }
    }
    await client.end();
    await fleet.close();
  }
} finally {
  await cluster.admin.end();
  await cluster.pg.stop();
}
console.log('| variant | nodes | median ms | statements | bars |\n|---|---:|---:|---:|---:|\n' + out.join('\n'));
