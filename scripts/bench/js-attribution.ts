/**
 * `npx tsx scripts/bench/js-attribution.ts [route] [--files] [--top 40]`: where a page's
 * first-load JS (scripts/bench/js-size.ts) comes from, by npm package (or by source file with
 * `--files`), from the browser source maps of a build made with
 * `NEXT_BROWSER_SOURCE_MAPS=1 npx next build` (next.config.ts). Each chunk's gzip size is shared
 * out in proportion to the minified bytes each source produced in it: gzip compresses all of a
 * chunk together, so a per-source figure is an estimate, but the per-chunk totals are exact.
 * Found what bounds the console's budget (docs/first-load-js.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { TraceMap, eachMapping } from '@jridgewell/trace-mapping';
import { STATS_FILE } from './js-size';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { files: { type: 'boolean', default: false }, top: { type: 'string', default: '40' } },
});
const route = positionals[0] ?? '/nodes/[nodeId]';

/** A source's group: the npm package (Next's vendored React counts as its own), or the app's file. */
function groupOf(source: string): string {
  const file = source.replace(/^turbopack:\/\/\/\[project\]\//, '');
  if (values.files) return file;
  const compiled = /node_modules\/next\/dist\/compiled\/([^/]+)/.exec(file);
  if (compiled) return `next (compiled ${compiled[1]})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  // The bundler's own runtime has no package; the app's code is grouped by folder.
  return file.startsWith('turbopack://') ? 'turbopack runtime' : `app: ${file.split('/')[0]}/`;
}

const stats = JSON.parse(fs.readFileSync(STATS_FILE, 'utf8')) as { route: string; firstLoadChunkPaths: string[] }[];
const entry = stats.find((s) => s.route === route);
if (!entry) throw new Error(`${STATS_FILE} lists no route ${route}`);

const totals = new Map<string, number>();
const add = (group: string, bytes: number) => totals.set(group, (totals.get(group) ?? 0) + bytes);
let gzipTotal = 0;
let withoutMap = 0;
for (const chunk of entry.firstLoadChunkPaths) {
  const code = fs.readFileSync(chunk, 'utf8');
  const gzip = gzipSync(code).length;
  gzipTotal += gzip;
  const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
  const mapFile = url && path.join(path.dirname(chunk), url);
  if (!mapFile || !fs.existsSync(mapFile)) {
    withoutMap++;
    add('(no source map)', gzip);
    continue;
  }
  const lines = code.split('\n');
  const segments: { line: number; column: number; source: string }[] = [];
  eachMapping(new TraceMap(fs.readFileSync(mapFile, 'utf8')), (m) =>
    segments.push({ line: m.generatedLine, column: m.generatedColumn, source: m.source ?? '(unmapped)' }),
  );
  const bytes = new Map<string, number>();
  let mapped = 0;
  segments.forEach((s, i) => {
    const next = segments[i + 1];
    const end = next && next.line === s.line ? next.column : lines[s.line - 1]!.length;
    bytes.set(groupOf(s.source), (bytes.get(groupOf(s.source)) ?? 0) + end - s.column);
    mapped += end - s.column;
  });
  for (const [group, n] of bytes) add(group, (gzip * n) / code.length);
  add('(unmapped)', (gzip * (code.length - mapped)) / code.length);
}

console.log(
  `${route}: ${entry.firstLoadChunkPaths.length} chunks, ${(gzipTotal / 1024).toFixed(1)} kB gzip${withoutMap ? ` (${withoutMap} without a source map: build with NEXT_BROWSER_SOURCE_MAPS=1)` : ''}`,
);
console.log('| gzip kB (est.) | source |\n|---:|---|');
for (const [group, n] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`| ${(n / 1024).toFixed(1)} | ${group} |`);
