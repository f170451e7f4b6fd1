/**
 * The storm's figures: requests per operation, status counts, p50/p99 latency, refusals by
 * problem code, and the verdicts (violations, lost writes, 5xx, failed requests).
 */
import type { LostWrite } from './acks';
import type { Faults } from './faults';
import type { Reply } from './http';
import type { Violation } from '../../server/testing/invariants';

type KindStats = { count: number; statuses: Map<number, number>; ms: number[] };

/** Collects every reply of the storm. */
export class Stats {
  readonly kinds = new Map<string, KindStats>();
  readonly statuses = new Map<number, number>();
  readonly codes = new Map<string, number>();
  /** Samples of answers that are failures whatever the request: 5xx, or no answer at all. */
  readonly failures: string[] = [];
  serverErrors = 0;
  noAnswer = 0;
  requests = 0;
  /** 503s and unanswered requests an injected fault explains (scripts/stress/faults.ts). */
  explained = 0;

  constructor(readonly faults?: Faults) {}

  record(kind: string, reply: Reply): void {
    this.requests += 1;
    const k: KindStats = this.kinds.get(kind) ?? { count: 0, statuses: new Map<number, number>(), ms: [] };
    k.count += 1;
    k.statuses.set(reply.status, (k.statuses.get(reply.status) ?? 0) + 1);
    k.ms.push(reply.ms);
    this.kinds.set(kind, k);
    this.statuses.set(reply.status, (this.statuses.get(reply.status) ?? 0) + 1);
    if (reply.code) this.codes.set(reply.code, (this.codes.get(reply.code) ?? 0) + 1);
    const explained = this.faults?.explains(reply) ?? false;
    if (explained) this.explained += 1;
    else if (reply.status >= 500 || reply.status === 0) {
      if (reply.status === 0) this.noAnswer += 1;
      else this.serverErrors += 1;
      if (this.failures.length < 20) this.failures.push(`${kind}: ${reply.status || 'no answer'} ${reply.error ?? reply.text.slice(0, 300)}`);
    }
  }
}

/** Nearest-rank percentile of `values` (unsorted), in ms. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

/** The verdicts the exit code follows. */
export type Verdict = {
  violations: readonly Violation[];
  lost: readonly LostWrite[];
  replayMismatches: readonly string[];
  /** Roles and scopes: a call answered otherwise than the role or key's scopes say (docs/product.md §2). */
  accessMismatches: readonly string[];
  acks: readonly { kind: string }[];
  /** More verdict lines (the retries of unanswered writes), and how many of them failed. */
  extra?: readonly string[];
  failures?: number;
};

/** Prints the summary table and verdicts. @returns true when the storm passed. */
export function printReport(stats: Stats, verdict: Verdict, header: string, elapsedSeconds: number): boolean {
  const out: string[] = [header, ''];
  out.push(
    `${'operation'.padEnd(34)}${pad('requests', 9)}${pad('2xx', 7)}${pad('4xx', 7)}${pad('5xx', 6)}${pad('none', 6)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}`,
  );
  const all: number[] = [];
  for (const [kind, k] of [...stats.kinds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const by = (lo: number, hi: number) => [...k.statuses.entries()].filter(([s]) => s >= lo && s < hi).reduce((n, [, c]) => n + c, 0);
    all.push(...k.ms);
    out.push(
      `${kind.padEnd(34)}${pad(k.count, 9)}${pad(by(200, 300), 7)}${pad(by(400, 500), 7)}${pad(by(500, 600), 6)}${pad(by(0, 1), 6)}${pad(percentile(k.ms, 0.5).toFixed(1), 9)}${pad(percentile(k.ms, 0.99).toFixed(1), 9)}`,
    );
  }
  out.push(
    `${'all'.padEnd(34)}${pad(stats.requests, 9)}${' '.repeat(26)}${pad(percentile(all, 0.5).toFixed(1), 9)}${pad(percentile(all, 0.99).toFixed(1), 9)}`,
  );
  out.push('');
  out.push(`throughput: ${(stats.requests / elapsedSeconds).toFixed(0)} requests/s over ${elapsedSeconds.toFixed(1)} s`);
  out.push(
    `status counts: ${[...stats.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s || 'no answer'}: ${n}`)
      .join(', ')}`,
  );
  out.push(
    `problem codes: ${
      [...stats.codes.entries()]
        .sort(([, a], [, b]) => b - a)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  out.push('');
  if (stats.faults) out.push(...stats.faults.summary(), `  503s and unanswered requests the faults explain: ${stats.explained}`, '');
  out.push(`5xx answers: ${stats.serverErrors}; requests without an answer: ${stats.noAnswer}${stats.faults ? ' (outside what the faults explain)' : ''}`);
  for (const f of stats.failures) out.push(`  ${f}`);
  const ackKinds = new Map<string, number>();
  for (const a of verdict.acks) ackKinds.set(a.kind, (ackKinds.get(a.kind) ?? 0) + 1);
  out.push(
    `acknowledged writes checked: ${verdict.acks.length} (${[...ackKinds.entries()].map(([k, n]) => `${k} ${n}`).join(', ')}); lost: ${verdict.lost.length}`,
  );
  for (const l of verdict.lost.slice(0, 20)) out.push(`  ${l.problem}: ${JSON.stringify(l.ack)}`);
  out.push(`idempotent replays that differed: ${verdict.replayMismatches.length}`);
  for (const m of verdict.replayMismatches.slice(0, 10)) out.push(`  ${m}`);
  out.push(`role and scope answers that differed: ${verdict.accessMismatches.length}`);
  for (const m of verdict.accessMismatches.slice(0, 10)) out.push(`  ${m}`);
  out.push(`invariant violations: ${verdict.violations.length}`);
  const byInvariant = new Map<string, Violation[]>();
  for (const v of verdict.violations) byInvariant.set(v.invariant, [...(byInvariant.get(v.invariant) ?? []), v]);
  for (const [name, vs] of byInvariant) {
    out.push(`  ${name}: ${vs.length}`);
    for (const v of vs.slice(0, 10)) out.push(`    ${v.message}`);
  }
  for (const line of verdict.extra ?? []) out.push(line);
  const passed =
    verdict.violations.length === 0 &&
    verdict.lost.length === 0 &&
    verdict.replayMismatches.length === 0 &&
    verdict.accessMismatches.length === 0 &&
    stats.serverErrors === 0 &&
    stats.noAnswer === 0 &&
    (stats.faults?.bad503.length ?? 0) === 0 &&
    (verdict.failures ?? 0) === 0;
  out.push('', passed ? 'storm passed' : 'storm FAILED');
  console.log(out.join('\n'));
  return passed;
}
