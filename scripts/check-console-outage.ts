/**
 * `npx tsx scripts/check-console-outage.ts`: a console page while the database is down
 * (docs/reliability.md). Starts a throwaway PostgreSQL with the demo fleet and one production
 * instance (the build in `.next`), signs in, stops PostgreSQL, and opens a node page in Chromium:
 * it must show "The service is unavailable" (app/error.tsx) within 5 s, and the console's tRPC
 * call must answer 503 with Retry-After; then PostgreSQL starts again and the open page must
 * show the grid again by itself, and load again, without restarting the instance. Exits 1
 * otherwise. Chromium: CHROMIUM_PATH or /usr/bin/chromium.
 * Option: --port (3232).
 */
import { chromium } from '@playwright/test';
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD } from '../db/seed';
import { seedFleet, startDatabase, startInstances, stopInstances, type Instance } from './stress/fleet';
import { signIn } from './stress/http';

const { values: args } = parseArgs({ options: { port: { type: 'string', default: '3232' } }, strict: true });
const NODE_PAGE = '/nodes/acme-h100-01';

const database = await startDatabase();
const instances: Instance[] = [];
const failures: string[] = [];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  await Promise.all([seedFleet(database.db), startInstances(1, database.pg.url, instances, {}, Number(args.port))]);
  const base = instances[0]!.base;
  const session = await signIn(base, 'alice@acme.example', DEMO_PASSWORD);
  const context = await browser.newContext();
  const [name, ...value] = session.cookie.split('=');
  await context.addCookies([{ name: name!, value: value.join('='), url: base }]);
  const page = await context.newPage();

  /** Opens the node page; @returns what it shows, and how long that took. */
  const open = async (expect: 'grid' | 'outage') => {
    const started = performance.now();
    await page.goto(base + NODE_PAGE);
    const shown = expect === 'grid' ? page.getByRole('group', { name: 'GPU units' }) : page.locator('main[role=alert]');
    const text = await shown.innerText({ timeout: 15_000 }).catch(() => undefined);
    return { text, ms: performance.now() - started };
  };

  const up = await open('grid');
  if (up.text === undefined) failures.push('the node page shows no grid before the outage');
  await database.pg.halt();
  const down = await open('outage');
  console.log(`database down: the node page showed ${JSON.stringify(down.text)} after ${down.ms.toFixed(0)} ms`);
  if (!down.text?.includes('The service is unavailable') || down.ms > 5_000) failures.push('the node page did not say "The service is unavailable" within 5 s');
  const call = await fetch(`${base}/api/trpc/nodes.get?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { nodeId: 'acme-h100-01' } } }))}`, {
    headers: { cookie: session.cookie, 'sec-fetch-site': 'same-origin' },
  });
  const body = await call.text();
  console.log(`database down: tRPC nodes.get answered ${call.status}, Retry-After ${call.headers.get('retry-after')}`);
  if (call.status !== 503 || !call.headers.get('retry-after') || !body.includes('"service_unavailable"'))
    failures.push(`tRPC answered ${call.status} ${body.slice(0, 200)}`);
  await database.pg.resume();
  // The outage page left open comes back by itself (app/error.tsx retries every 5 s).
  const healed = performance.now();
  const selfHealed = await page
    .getByRole('group', { name: 'GPU units' })
    .innerText({ timeout: 15_000 })
    .catch(() => undefined);
  console.log(`database back: the open outage page showed the grid again by itself after ${(performance.now() - healed).toFixed(0)} ms`);
  if (selfHealed === undefined) failures.push('the outage page did not come back by itself within 15 s of the database');
  const back = await open('grid');
  console.log(`database back: the grid showed after ${back.ms.toFixed(0)} ms, same instance`);
  if (back.text === undefined) failures.push('the node page shows no grid after the outage');
} finally {
  await browser.close();
  await stopInstances(instances);
  await database.close().catch(() => {});
  await database.pg.stop();
}
console.log(failures.length ? `FAILED: ${failures.join('; ')}` : 'console outage check passed');
process.exit(failures.length ? 1 : 0);
