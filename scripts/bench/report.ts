/**
 * The benchmark's table (issue 10): per scenario and fleet size the median over rounds of
 * requests/s, p50 and p99 (ms) at the bench's concurrency and their ratio (issue 26: tails), p50 at concurrency 1 for reads, the
 * ratio to the floor's throughput of the same round (min–max over rounds), statements per
 * request; then the console timings and first-load JS, each target of the issue beside its
 * figure with ✓ or ✗.
 */
import type { LoadResult } from './load';

export type Sample = { round: number; nodes: number; result: LoadResult; single?: LoadResult; statements: number; roundTrips: number; floorRps: number };

export type Row = {
  key: string;
  kind: string;
  nodes: number;
  rps: number;
  p50: number;
  p99: number;
  p50c1?: number;
  ratio: [number, number, number];
  statements: number;
  roundTrips: number;
  requests: number;
  unexpected: Record<number, number>;
  sample?: string;
};

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** One row per (scenario, fleet size): medians over the rounds. */
export function summarise(key: string, kind: string, nodes: number, samples: readonly Sample[]): Row {
  const ratios = samples.map((s) => s.result.rps / s.floorRps);
  const unexpected: Record<number, number> = {};
  for (const s of samples)
    for (const r of [s.result, s.single])
      for (const [status, n] of Object.entries(r?.unexpected ?? {})) unexpected[Number(status)] = (unexpected[Number(status)] ?? 0) + n;
  const singles = samples.flatMap((s) => (s.single ? [s.single.p50] : []));
  const sample = samples.map((s) => s.result.sample ?? s.single?.sample).find(Boolean);
  return {
    key,
    kind,
    nodes,
    rps: median(samples.map((s) => s.result.rps)),
    p50: median(samples.map((s) => s.result.p50)),
    p99: median(samples.map((s) => s.result.p99)),
    ...(singles.length ? { p50c1: median(singles) } : {}),
    ratio: [median(ratios), Math.min(...ratios), Math.max(...ratios)],
    statements: median(samples.map((s) => s.statements)),
    roundTrips: median(samples.map((s) => s.roundTrips)),
    requests: samples.reduce((n, s) => n + s.result.requests + (s.single?.requests ?? 0), 0),
    unexpected,
    ...(sample ? { sample } : {}),
  };
}

export type Check = { what: string; figure: string; target: string; ok: boolean };

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/** Markdown table of the rows, small fleet then large fleet per scenario. */
export function renderRows(rows: readonly Row[]): string {
  const lines = [
    '| scenario | principal | nodes | req/s | p50 ms | p99 ms | p99 ÷ p50 | p50 ms, c=1 | ÷ floor (min–max) | statements/req | round trips/req |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const [name, principal] = r.key.split(' · ');
    const errors = Object.keys(r.unexpected).length ? ` ⚠ ${JSON.stringify(r.unexpected)}` : '';
    lines.push(
      `| ${name}${errors} | ${principal} | ${r.nodes.toLocaleString('en')} | ${r.rps.toFixed(0)} | ${f1(r.p50)} | ${f1(r.p99)} | ${f1(r.p99 / r.p50)} | ${r.p50c1 === undefined ? '' : f1(r.p50c1)} | ${r.kind === 'floor' ? '1' : `${f2(r.ratio[0])} (${f2(r.ratio[1])}–${f2(r.ratio[2])})`} | ${f1(r.statements)} | ${f1(r.roundTrips)} |`,
    );
  }
  return lines.join('\n');
}

/** Markdown table of the checks. */
export function renderChecks(checks: readonly Check[]): string {
  return [
    '| target | figure | target value | |',
    '|---|---:|---|---|',
    ...checks.map((c) => `| ${c.what} | ${c.figure} | ${c.target} | ${c.ok ? '✓' : '✗'} |`),
  ].join('\n');
}

export { f1, f2 };
