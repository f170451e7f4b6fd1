/**
 * `npx tsx scripts/bench/first-load-js.ts [--json]`: every page's first-load JS (gzip) of the
 * production build in `.next`, against the console's budget (issue 10). The same figure
 * `npm run bench` prints (scripts/bench/js-size.ts); this runs in a second, with no database or
 * server, so a bundle change can be judged right after `next build`. Exits 1 when a page is
 * over budget.
 */
import { parseArgs } from 'node:util';
import { JS_BUDGET_KB, measurePages } from './js-size';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const pages = measurePages();
if (values.json) console.log(JSON.stringify(pages, null, 2));
else {
  console.log('| page | chunks | raw kB | gzip kB | budget |\n|---|---:|---:|---:|---|');
  for (const p of pages)
    console.log(`| ${p.route} | ${p.chunks} | ${p.rawKb.toFixed(1)} | ${p.gzipKb.toFixed(1)} | ${p.gzipKb <= JS_BUDGET_KB ? '✓' : '✗'} ≤ ${JS_BUDGET_KB} |`);
}
process.exit(pages.some((p) => p.gzipKb > JS_BUDGET_KB) ? 1 : 0);
