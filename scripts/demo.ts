/**
 * `npm run demo` (issue 24 point 5): plays the story of e2e/demo/story.ts in Chromium on a
 * server and a freshly seeded fleet of its own, and writes `demo-output/` — a screenshot per
 * step, `demo.mp4` and `index.html`. Reuses the production build in `.next` when it is newer than
 * every source file the app is built from (as `npm test` leaves it), else builds one first.
 * `DEMO_SHORT=1` (what `npm test` runs) plays it without the film: the same steps and asserts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp, hasProductionBuild } from './stress/fleet';

/** What `next build` reads: the app's folders and the files that configure the build. */
const SOURCES = [
  'app',
  'components',
  'server',
  'db',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];

/** The newest modification time under `p` (tests excluded: the build never reads them). */
function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(p) ? 0 : stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/** True when `.next` holds a production build newer than its sources. */
function buildIsCurrent(): boolean {
  if (!hasProductionBuild()) return false;
  const built = fs.statSync(path.join('.next', 'BUILD_ID')).mtimeMs;
  return SOURCES.every((s) => newest(s) <= built);
}

if (buildIsCurrent()) console.log('Reusing the production build in .next.');
else {
  console.log(hasProductionBuild() ? 'The build in .next is older than the sources: building again…' : 'No production build in .next: building one…');
  buildApp();
}
const run = spawnSync('node_modules/.bin/playwright', ['test', '-c', 'playwright.demo.config.ts'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
