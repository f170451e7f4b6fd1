/**
 * The node timeline's render time (issue 24, docs/performance.md "Node timeline"): a node of 16
 * units with 1,000 intervals over the last 30 days, its page opened in Chromium on the
 * production build, then the 7 d and 30 d zooms taken in turn, warm (each window read once
 * first): the time from the 30 d click (the `timeline:change` mark) to the first frame after the
 * bars are rendered (`timeline:painted`, components/timeline/node-timeline.tsx). Target < 300 ms.
 *
 * Run by `npm run bench` (scripts/bench.ts); alone: `npx tsx scripts/bench/timeline.ts` (its own
 * PostgreSQL and `next start` on BENCH_PORT's range, the demo seed only).
 */
import type { Browser } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { pathToFileURL } from 'node:url';
import type { Db } from '../../db/client';
import { gpuUnits, insertNode } from '../../db/factories';
import type { Session } from '../stress/http';
import { median } from './report';

export const TIMELINE_NODE = 'bench-timeline';
export const TIMELINE_INTERVALS = 1_000;
export const TIMELINE_TARGET_MS = 300;
const HOUR = 3_600_000;

/**
 * The node: 16 units, each a history of ~62 reserved / released / VM rows back to back over the
 * last 30 days (open ones at the end), 1,000 rows in all, owned by the demo seed's Acme.
 */
export async function seedTimelineNode(db: Db, now = Date.now()): Promise<string> {
  await db.execute(sql`delete from unit_intervals where node_id = ${TIMELINE_NODE}`);
  await db.execute(sql`delete from node_units where node_id = ${TIMELINE_NODE}`);
  await db.execute(sql`delete from node_topologies where node_id = ${TIMELINE_NODE}`);
  await db.execute(sql`delete from nodes where id = ${TIMELINE_NODE}`);
  const units = gpuUnits(16);
  await insertNode(db, { id: TIMELINE_NODE, ownerOrgId: 'org_acme', units, createdAt: new Date(now - 40 * 24 * HOUR) });
  const kinds = ['reserved', 'released', 'vm'] as const;
  const rows: string[] = [];
  const perUnit = Math.ceil(TIMELINE_INTERVALS / units.length);
  const step = (30 * 24 * HOUR) / perUnit;
  for (let n = 0; n < TIMELINE_INTERVALS; n++) {
    const u = n % units.length;
    const k = Math.floor(n / units.length);
    const kind = kinds[k % 3]!;
    const start = now - 30 * 24 * HOUR + k * step;
    const end = start + step * 0.9;
    const open = end > now;
    const vm = kind === 'vm' ? `'bench-vm-${n}'` : 'null';
    rows.push(
      `('${TIMELINE_NODE}', '${units[u]!.id}', '${kind}', 'bench-r-${u}', ${vm}, '${new Date(start).toISOString()}', ${open ? 'null' : `'${new Date(end).toISOString()}'`}, ${open}, ${kind === 'vm' && !open ? "'terminate'" : 'null'})`,
    );
  }
  await db.execute(
    sql.raw(`insert into unit_intervals (node_id, unit_id, kind, reservation_id, vm_id, starts_at, ends_at, open, ended_by) values ${rows.join(',\n')}`),
  );
  return TIMELINE_NODE;
}

/**
 * Median ms from the 30 d zoom click (from 7 d) to its bars painted, over `samples` clicks (both
 * windows read once before), as the operator (who sees every row).
 */
export async function timeTimeline(browser: Browser, base: string, session: Session, samples = 10): Promise<{ median: number; all: number[]; bars: number }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 1000 } });
  const [name, ...rest] = session.cookie.split('=');
  await context.addCookies([{ name: name!, value: rest.join('='), domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  try {
    await page.goto(`/nodes/${TIMELINE_NODE}?tlZoom=30d&tlFrom=${encodeURIComponent(new Date(Date.now() - 29 * 24 * HOUR).toISOString())}`);
    await page.locator('[data-testid="timeline-bar"]').first().waitFor({ timeout: 30_000 });
    const click = async (label: string) => {
      await page.evaluate(() => performance.clearMarks());
      await page.getByRole('button', { name: label, exact: true }).click();
      await page.waitForFunction(() => performance.getEntriesByName('timeline:painted').length > 0, undefined, { timeout: 30_000 });
      // Let a background refetch land too, so the next sample starts from rest.
      await page.waitForLoadState('networkidle');
      return page.evaluate(() => {
        const change = performance.getEntriesByName('timeline:change')[0]!.startTime;
        const painted = performance.getEntriesByName('timeline:painted').find((m) => m.startTime >= change)!.startTime;
        return painted - change;
      });
    };
    // Warm: each window read and drawn once.
    await click('7 d');
    await click('30 d');
    const bars = await page.locator('[data-testid="timeline-bar"]').count();
    const all: number[] = [];
    // Each sample: back to 7 d (untimed), then 30 d, the window that holds (nearly) all 1,000.
    for (let i = 0; i < samples; i++) {
      await click('7 d');
      all.push(await click('30 d'));
    }
    return { median: median(all), all, bars };
  } finally {
    await context.close();
  }
}

// Alone: a stage of its own (the demo seed only), the figure printed.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { launchBrowser } = await import('./console');
  const { OPERATOR_EMAIL } = await import('./scenarios');
  const { FIRST_APP_PORT, createFleet, startCluster, startInstance, stopInstance } = await import('./stage');
  const cluster = await startCluster();
  const fleet = await createFleet(cluster, 0);
  const instance = await startInstance(FIRST_APP_PORT, fleet.url, [OPERATOR_EMAIL]);
  const browser = await launchBrowser();
  try {
    await seedTimelineNode(fleet.db);
    const t = await timeTimeline(browser, instance.base, instance.sessions[OPERATOR_EMAIL]!);
    console.log(
      `node timeline, ${TIMELINE_INTERVALS} intervals (${t.bars} bars in 30 d): zoom → bars painted, warm, median ${t.median.toFixed(0)} ms (samples ${t.all.map((x) => x.toFixed(0)).join(' ')}) ${t.median < TIMELINE_TARGET_MS ? '✓' : '✗'} < ${TIMELINE_TARGET_MS} ms`,
    );
  } finally {
    await browser.close();
    await stopInstance(instance);
    await fleet.close();
    await cluster.admin.end();
    await cluster.pg.stop();
  }
}
