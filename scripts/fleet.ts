/**
 * `npm run fleet -- --nodes 10000 [--history 20]`: recreates the dev database (or DATABASE_URL's)
 * to the demo seed (docs/product.md §7) plus a bulk-generated fleet (db/fleet.ts) of that many
 * nodes, and prints the counts, how long it took and its steps of a second or more. The
 * benchmark (scripts/bench.ts) builds its fleets with the same two calls. 100,000 nodes take
 * about three minutes and 4.6 GB (docs/performance.md, issue 26).
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb } from '../db/client';
import { generateFleet } from '../db/fleet';
import { resetToMigrated } from '../db/recreate';
import { seedDemoFleet } from '../server/demo';
import { ensureDevDatabase, writeDemoKeys } from './dev-db';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '10000' }, history: { type: 'string', default: '20' } } });
const nodes = Number(values.nodes);
const history = Number(values.history);
if (!Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(history) || history < 1) {
  console.error('usage: npm run fleet -- --nodes N [--history VMS_PER_NODE]  (positive integers)');
  process.exit(2);
}

const pg = await ensureDevDatabase();
// Inside the try, so that a failed reset still stops the embedded server.
try {
  await resetToMigrated(pg.url);
  const { db, client } = createDb(pg.url, { max: 2 });
  try {
    const keys = await seedDemoFleet(db, new Date());
    const [clock] = await db.execute<{ now: string }>(sql`select now()::text as now`);
    const started = performance.now();
    // Where the time went: the steps of a second or more (at 100,000 nodes: the audit trail, the exclusion constraint's GiST index, the VMs' intervals).
    const slow: string[] = [];
    const onStep = (step: string, s: number) => {
      if (s >= 1) slow.push(`  ${step.padEnd(52)} ${s.toFixed(1)} s`);
    };
    const counts = await generateFleet(db, { nodes, historyPerNode: history, now: new Date(clock!.now), onStep });
    const seconds = (performance.now() - started) / 1000;
    writeDemoKeys(keys);
    console.log(`Fleet of ${nodes} nodes generated in ${seconds.toFixed(1)} s:`);
    for (const [what, n] of Object.entries(counts)) console.log(`  ${what.padEnd(14)} ${n.toLocaleString('en')}`);
    if (slow.length) console.log(`Steps of a second or more:\n${slow.join('\n')}`);
  } finally {
    await client.end();
  }
} finally {
  await pg.stop();
}
