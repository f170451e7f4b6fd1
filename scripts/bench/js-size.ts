/**
 * First-load JavaScript of a console page (issue 10, P3): the gzip size of the chunks Next's
 * build lists for the route. Next 16 writes them to `.next/diagnostics/route-bundle-stats.json`
 * (`firstLoadChunkPaths` per route: the root main files plus the route's own chunks — what
 * the browser must load before the page is interactive; later dialogs loaded on demand are not
 * in it). Each chunk is gzipped at zlib's default level, as `next start` compresses responses;
 * 1 kB = 1024 bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Issue 10's budget for every page; the smoke (`npm test`) fails on a page over it. React and
 * Next's own client runtime are 136 kB of any page (the size of /sign-in), which leaves 14 kB
 * for the console: its pages render from server data and load the data layer (TanStack Query,
 * the tRPC client, superjson: ≈ 24 kB) only with a dialog or a form's first call
 * (docs/first-load-js.md). A dialog, chart or live-update client that lands in a page's first
 * load instead of loading on demand fails the smoke.
 */
export const JS_BUDGET_KB = 150;
export const STATS_FILE = path.join('.next', 'diagnostics', 'route-bundle-stats.json');

export type RouteJs = { route: string; chunks: number; gzipKb: number; rawKb: number };

/** Every page the build lists, as `measureFirstLoadJs` measures them: API routes ship no JS. */
export function measurePages(): RouteJs[] {
  return measureFirstLoadJs([]).filter((p) => !p.route.startsWith('/v1') && !p.route.startsWith('/api/') && !p.route.startsWith('/bench/'));
}

/**
 * @returns the first-load JS of each route asked for, then of every other route the build lists,
 *   from the build in `.next`.
 * @throws Error when the build lists no such route (or wrote no stats file).
 */
export function measureFirstLoadJs(routes: readonly string[]): RouteJs[] {
  if (!fs.existsSync(STATS_FILE)) throw new Error(`${STATS_FILE} is missing: build the app first (npm run bench -- --build)`);
  const stats = JSON.parse(fs.readFileSync(STATS_FILE, 'utf8')) as { route: string; firstLoadChunkPaths: string[] }[];
  const all = [...routes, ...stats.map((s) => s.route).filter((r) => !routes.includes(r))];
  return all.map((route) => {
    const entry = stats.find((s) => s.route === route);
    if (!entry) throw new Error(`${STATS_FILE} lists no route ${route}`);
    let gzip = 0;
    let raw = 0;
    for (const chunk of entry.firstLoadChunkPaths) {
      // Paths are relative to the project (`.next/static/chunks/…`).
      const bytes = fs.readFileSync(chunk);
      raw += bytes.length;
      gzip += gzipSync(bytes).length;
    }
    return { route, chunks: entry.firstLoadChunkPaths.length, gzipKb: gzip / 1024, rawKb: raw / 1024 };
  });
}
