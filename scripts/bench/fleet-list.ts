/**
 * `npx tsx scripts/bench/fleet-list.ts [--nodes 100,10000] [--runs 40]`: the fleet list's
 * variants (issue 23: search, sort, owner by name, relation, released, needs review) timed at
 * the verb on bench fleets (scripts/bench/stage.ts), with their statements per request and the
 * `EXPLAIN (ANALYZE, BUFFERS)` of each statement at the largest fleet. The HTTP figures are the
 * bench's (its list scenarios include these variants); this isolates the queries.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../../db/schema';
import { listNodes } from '../../server/nodes/list';
import type { ListNodesInput } from '../../server/nodes/schemas';
import { createFleet, resetStatements, startCluster } from './stage';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '100,10000' }, runs: { type: 'string', default: '40' } } });
const sizes = values.nodes.split(',').map(Number);
const runs = Number(values.runs);

/** Each variant: who asks (an org of the demo seed) and what. */
const variants: { name: string; orgId: string; input: ListNodesInput }[] = [
  { name: 'first page (id)', orgId: 'org_acme', input: { limit: 100 } },
  { name: 'sort by name desc', orgId: 'org_acme', input: { limit: 100, sort: 'name', order: 'desc' } },
  { name: 'sort by owner, page 2', orgId: 'org_acme', input: { limit: 100, sort: 'owner' } },
  { name: 'search q=fleet-0042', orgId: 'org_acme', input: { limit: 100, q: 'fleet-0042' } },
  { name: 'search q=zzz (none)', orgId: 'org_acme', input: { limit: 100, q: 'zzz' } },
  { name: 'owner=borealis (name)', orgId: 'org_acme', input: { limit: 100, owner: 'borealis' } },
  { name: 'relation=manages (Helix: all)', orgId: 'org_helix', input: { limit: 100, relation: 'manages' } },
  { name: 'relation=uses (Zephyr: none)', orgId: 'org_zephyr', input: { limit: 100, relation: 'uses' } },
  { name: 'hasReleased=true', orgId: 'org_acme', input: { limit: 100, hasReleased: 'true' } },
  { name: 'needsReview=true', orgId: 'org_acme', input: { limit: 100, needsReview: 'true' } },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cluster = await startCluster();
const results: Record<string, Record<number, { ms: number; statements: number }>> = {};
const plans: string[] = [];
try {
  for (const nodes of sizes) {
    const fleet = await createFleet(cluster, nodes);
    const client = postgres(fleet.url, { max: 4, onnotice: () => {}, connection: { TimeZone: 'UTC' } });
    let log: { query: string; params: unknown[] }[] = [];
    const db = drizzle(client, { schema, logger: { logQuery: (query, params) => log.push({ query, params }) } });
    await client.unsafe('analyze');
    const now = new Date();
    for (const v of variants) {
      const ctx = { orgId: v.orgId, actor: { kind: 'apiKey', apiKeyId: 'bench' }, via: 'console', db, now } as const;
      // "page 2" variants page once to get a cursor of their sort.
      const input = v.name.includes('page 2') ? { ...v.input, cursor: (await listNodes({ ctx, input: v.input })).nextCursor } : v.input;
      for (let i = 0; i < 5; i++) await listNodes({ ctx, input });
      await resetStatements(cluster);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await listNodes({ ctx, input });
        times.push(performance.now() - t);
      }
      const [calls] = await cluster.admin.unsafe<{ n: string }[]>(
        `select coalesce(sum(calls), 0)::text as n from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = '${fleet.database}'`,
      );
      (results[v.name] ??= {})[nodes] = { ms: median(times), statements: Number(calls!.n) / runs };
      if (nodes === Math.max(...sizes)) {
        log = [];
        await listNodes({ ctx, input });
        plans.push(`### ${v.name} (${v.orgId})\n`);
        for (const q of log) {
          const rows = await client.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${q.query}`, q.params as never[]);
          plans.push('```\n' + q.query.slice(0, 400) + '\n' + rows.map((r) => r['QUERY PLAN']).join('\n') + '\n```\n');
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

const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
console.log(`| variant | ${small} nodes ms | ${large} nodes ms | ratio | statements |`);
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of Object.entries(results)) {
  console.log(
    `| ${name} | ${r[small]!.ms.toFixed(2)} | ${r[large]!.ms.toFixed(2)} | ${(r[large]!.ms / r[small]!.ms).toFixed(2)} | ${r[small]!.statements.toFixed(1)} / ${r[large]!.statements.toFixed(1)} |`,
  );
}
console.log('\n' + plans.join('\n'));
