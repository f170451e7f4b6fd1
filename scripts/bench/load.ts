/**
 * The benchmark's load generator: a fixed number of concurrent clients over keep-alive
 * connections (undici's Pool, one connection per client), each sending its next request as soon
 * as the previous one answered — for a duration, or until a fixed number of requests is spent
 * (reclaims: each fixture is fired once).
 */
import { Pool } from 'undici';

export type BenchRequest = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

export type LoadResult = {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the expected one, by status (0: no answer). */
  unexpected: Record<number, number>;
  /** One unexpected answer's body, to say what went wrong. */
  sample?: string;
};

/** The value below which `q` of the sorted latencies lie (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Fires `request(i)` for i = 0, 1, … from `concurrency` clients.
 * @param opts.seconds stop starting requests after this long; @param opts.amount or after this many.
 */
export async function runLoad(
  base: string,
  opts: { concurrency: number; seconds?: number; amount?: number; expect: number; request: (i: number) => BenchRequest },
): Promise<LoadResult> {
  const pool = new Pool(base, { connections: opts.concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const unexpected: Record<number, number> = {};
  let sample: string | undefined;
  let next = 0;
  const started = performance.now();
  const deadline = opts.seconds === undefined ? Infinity : started + opts.seconds * 1000;
  const client = async () => {
    for (;;) {
      const i = next++;
      if ((opts.amount !== undefined && i >= opts.amount) || performance.now() >= deadline) return;
      const r = opts.request(i);
      const t0 = performance.now();
      let status = 0;
      let text = '';
      try {
        const res = await pool.request({ method: r.method, path: r.path, headers: r.headers, body: r.body });
        status = res.statusCode;
        text = await res.body.text();
      } catch (e) {
        text = String(e);
      }
      latencies.push(performance.now() - t0);
      if (status !== opts.expect) {
        unexpected[status] = (unexpected[status] ?? 0) + 1;
        sample ??= `${r.method} ${r.path} → ${status}: ${text.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    unexpected,
    ...(sample ? { sample } : {}),
  };
}
