/**
 * `npx tsx scripts/bench/ab-reclaim.ts [--pairs 10] [--block 400] [--scenario reclaim|dry]`: the
 * reclaim's share of the floor (docs/product.md §8 P1) measured in alternating blocks on one
 * server. `npm run bench` runs each scenario for seconds at a time, and this VM's speed drifts by
 * 10–20 % between such runs: its ratio moved by ±0.1 between two runs of one build
 * (docs/performance.md). Here a block of `block` floor requests is followed at once by `block`
 * reclaims (or dry runs), `pairs` times, on the 100-node fleet at concurrency 8, each pair's ratio
 * is printed, and the median of the pairs after the first two (the server's JIT warms during
 * those, which flatters the floor least) — a figure that repeats to about ±0.02 from run to run,
 * steady enough to price one part of the reclaim by building the app without it
 * (docs/performance.md, "What each part of the write costs").
 */
import { parseArgs } from 'node:util';
import { createFleet, startCluster, startInstance, stopInstance, FIRST_APP_PORT } from './stage';
import { buildFixtures, dropFixtures, fixtureNode, fixtureRequest } from './fixtures';
import { runLoad } from './load';

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '10' }, block: { type: 'string', default: '400' }, scenario: { type: 'string', default: 'reclaim' } },
});
const pairs = Number(values.pairs);
const block = Number(values.block);
const dryRun = values.scenario === 'dry';
if (!Number.isInteger(pairs) || pairs < 3 || !Number.isInteger(block) || block < 50 || !['reclaim', 'dry'].includes(values.scenario!)) {
  throw new Error('usage: ab-reclaim.ts [--pairs ≥ 3] [--block ≥ 50] [--scenario reclaim|dry]');
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cluster = await startCluster();
const fleet = await createFleet(cluster, 100);
const instance = await startInstance(FIRST_APP_PORT, fleet.url, []);
try {
  const key = fleet.keys.org_acme!;
  const request = (floor: boolean, batch: string, offset: number) => (i: number) =>
    fixtureRequest(key, fixtureNode(batch, offset + i), floor ? 'floor' : dryRun ? 'dry' : 'reclaim');
  // Warm-up: every pooled connection prepares its statements, for both routes.
  await buildFixtures(fleet.db, 'warm', 300);
  for (const floor of [false, true]) await runLoad(instance.base, { concurrency: 8, amount: 300, expect: 200, request: request(floor, 'warm', 0) });
  await dropFixtures(fleet.db);
  // A dry run changes nothing: one block of fixtures serves every pair.
  await buildFixtures(fleet.db, 'ab', dryRun ? block : pairs * block);
  const ratios: number[] = [];
  for (let k = 0; k < pairs; k++) {
    const offset = dryRun ? 0 : k * block;
    const floor = await runLoad(instance.base, { concurrency: 8, amount: block, expect: 200, request: request(true, 'ab', offset) });
    const scenario = await runLoad(instance.base, { concurrency: 8, amount: block, expect: 200, request: request(false, 'ab', offset) });
    if (Object.keys(scenario.unexpected).length > 0) throw new Error(`unexpected answers: ${JSON.stringify(scenario.unexpected)} ${scenario.sample ?? ''}`);
    ratios.push(scenario.rps / floor.rps);
    console.log(
      `pair ${k}: floor ${floor.rps.toFixed(0)}/s, ${values.scenario} ${scenario.rps.toFixed(0)}/s (p99 ÷ p50 ${(scenario.p99 / scenario.p50).toFixed(1)}), ratio ${(scenario.rps / floor.rps).toFixed(3)}`,
    );
  }
  console.log(`${values.scenario} ÷ floor: median ${median(ratios.slice(2)).toFixed(3)} of pairs 2–${pairs - 1} (all pairs ${median(ratios).toFixed(3)})`);
} finally {
  await stopInstance(instance);
  await dropFixtures(fleet.db);
  await fleet.close();
  await cluster.admin.end();
  await cluster.pg.stop();
}
