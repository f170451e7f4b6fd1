/**
 * Faults the storm injects while it runs (issue 9 point 3, docs/product.md §8 R2), and the
 * windows in which their symptoms are expected:
 * - `kill`: `kill -9` of one app instance, then a fresh one on the same port. While it is
 *   down, a request to it may get no answer (refused or reset): that alone is expected.
 * - `outage`: PostgreSQL stopped for N seconds, then started on the same data and port. Every
 *   instance must answer 503 `service_unavailable` with `Retry-After` meanwhile, fast, and
 *   recover without a restart: a 503 is acceptable only inside this window.
 * Outside the windows, both symptoms are failures as before.
 */
import type { Reply } from './http';
import { percentile } from './report';

/** A killed instance, PostgreSQL stopped, or the webhook receiver down (which no API answer depends on). */
export type FaultKind = 'kill' | 'outage' | 'receiver';

/** One injected fault: from just before it starts until the system should be whole again. */
export type FaultWindow = { kind: FaultKind; from: number; to?: number; base?: string; note: string };

/** How long after PostgreSQL is back a 503 is still put down to the outage (reconnects under way). */
const OUTAGE_GRACE_MS = 2_000;

/** The windows, and what happened in them. */
export class Faults {
  readonly windows: FaultWindow[] = [];
  /** Latency of every 503 to a request sent during an outage, ms. */
  readonly unavailableMs: number[] = [];
  /** The same for requests already in flight when the outage began. */
  readonly inFlightMs: number[] = [];
  readonly retryAfter = new Set<string>();
  /** 503s inside an outage without the problem, without `Retry-After` ≤ 5 s, or slower than 5 s: failures. */
  readonly bad503: string[] = [];
  noAnswerInKill = 0;
  /** Per instance, ms from PostgreSQL's restart to its first 2xx. */
  readonly recoveredMs = new Map<string, number>();
  private resumedAt: number | undefined;

  open(kind: FaultKind, note: string, base?: string): FaultWindow {
    const w: FaultWindow = { kind, from: performance.now(), note, ...(base ? { base } : {}) };
    this.windows.push(w);
    return w;
  }

  /** Closes the window; an outage's stays open `OUTAGE_GRACE_MS` longer. */
  close(w: FaultWindow): void {
    const now = performance.now();
    w.to = w.kind === 'outage' ? now + OUTAGE_GRACE_MS : now;
    if (w.kind === 'outage') this.resumedAt = now;
  }

  /** The window of `kind` the reply's time overlaps, if any. */
  private covering(kind: FaultKind, reply: Reply, base?: string): FaultWindow | undefined {
    const end = reply.at + reply.ms;
    return this.windows.find((w) => w.kind === kind && (!base || w.base === base) && reply.at <= (w.to ?? Infinity) && end >= w.from);
  }

  /**
   * Whether a failure-looking reply is what an injected fault explains (and notes its figures).
   * @returns true for a 503 service_unavailable inside an outage, or no answer from a killed instance.
   */
  explains(reply: Reply): boolean {
    if (reply.status >= 200 && reply.status < 300 && this.resumedAt !== undefined && reply.at >= this.resumedAt && !this.recoveredMs.has(reply.base)) {
      this.recoveredMs.set(reply.base, reply.at + reply.ms - this.resumedAt);
    }
    const outage = reply.status === 503 ? this.covering('outage', reply) : undefined;
    if (outage) {
      // A request already in flight when PostgreSQL stopped had spent part of its time before
      // the outage (queued behind the node lock, say): its wait is the load's, not the outage's.
      const inFlight = reply.at < outage.from;
      // docs/product.md §5: problem+json service_unavailable, Retry-After within 5 s; and a
      // request sent while the database is down is answered within 5 s.
      if (reply.code !== 'service_unavailable' || !reply.retryAfter || Number(reply.retryAfter) > 5 || (!inFlight && reply.ms > 5_000)) {
        this.bad503.push(`${reply.code ?? 'no code'} retry-after=${reply.retryAfter ?? 'none'} after ${reply.ms.toFixed(0)} ms: ${reply.text.slice(0, 200)}`);
        return false;
      }
      (inFlight ? this.inFlightMs : this.unavailableMs).push(reply.ms);
      this.retryAfter.add(reply.retryAfter);
      return true;
    }
    if (reply.status === 0 && this.covering('kill', reply, reply.base)) {
      this.noAnswerInKill += 1;
      return true;
    }
    return false;
  }

  /** The report's lines about the faults. */
  summary(): string[] {
    if (this.windows.length === 0) return [];
    const out = ['faults injected:'];
    for (const w of this.windows) out.push(`  ${w.kind}: ${w.note} (${(((w.to ?? performance.now()) - w.from) / 1000).toFixed(1)} s window)`);
    if (this.windows.some((w) => w.kind === 'outage')) {
      const max = this.unavailableMs.length ? Math.max(...this.unavailableMs) : 0;
      out.push(
        `  503 service_unavailable to requests sent during the outage: ${this.unavailableMs.length}, latency p50 ${percentile(this.unavailableMs, 0.5).toFixed(1)} ms, p99 ${percentile(this.unavailableMs, 0.99).toFixed(1)} ms, max ${max.toFixed(1)} ms; Retry-After ${[...this.retryAfter].join(', ') || '-'} s`,
        `  503 to requests in flight when PostgreSQL stopped: ${this.inFlightMs.length}, max ${(this.inFlightMs.length ? Math.max(...this.inFlightMs) : 0).toFixed(1)} ms (their time before the outage included)`,
      );
      out.push(`  503s that were not service_unavailable with Retry-After ≤ 5 s (within 5 s when sent during the outage): ${this.bad503.length}`);
      for (const b of this.bad503.slice(0, 5)) out.push(`    ${b}`);
      out.push(
        `  recovered without restart, first 2xx after PostgreSQL was back: ${[...this.recoveredMs].map(([b, ms]) => `${b} ${ms.toFixed(0)} ms`).join(', ') || 'none seen'}`,
      );
    }
    if (this.windows.some((w) => w.kind === 'kill')) out.push(`  requests to the killed instance without an answer while it was down: ${this.noAnswerInKill}`);
    return out;
  }
}
