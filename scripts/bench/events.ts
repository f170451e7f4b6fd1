/**
 * Time-driven figures of docs/product.md §8 P4 for events (docs/performance.md "Events"): with
 * two app instances on one database, the time from a change to (a) its webhook delivered to a
 * loopback receiver and (b) its message on a console's live stream (`/api/events`, which an open
 * page turns into a refresh at once). A change is a node registered by the operator, sent to the
 * two instances in turn, one at a time; its time is the event's `at` — the database's clock once
 * the writer held its lock, just before its commit — and each arrival is this process's clock on
 * the same machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Session } from '../stress/http';

export type LatencyFigures = { n: number; p50: number; p99: number; max: number };
export type EventFigures = { webhook: LatencyFigures; stream: LatencyFigures; lost: number };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
function figures(ms: number[]): LatencyFigures {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s.at(-1) ?? Number.NaN };
}

/**
 * @param bases the two instances. @param operatorKey an API key of the platform org.
 * @param operator the operator's console session on the second instance (its stream).
 * @param samples how many changes.
 */
export async function measureEventLatency(bases: readonly string[], operatorKey: string, operator: Session, samples: number): Promise<EventFigures> {
  const auth = { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' };
  const run = Date.now().toString(36);
  const arrivedHook = new Map<string, number>();
  const at = new Map<string, number>();
  let secret = '';
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const now = Date.now();
      try {
        const e = new Webhook(secret).verify(body, req.headers as Record<string, string>) as { timestamp: string; data: { nodeId: string } };
        if (!arrivedHook.has(e.data.nodeId)) arrivedHook.set(e.data.nodeId, now);
        at.set(e.data.nodeId, Date.parse(e.timestamp));
      } catch {
        // not signed as it must be: counted as lost
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;
  const created = await fetch(`${bases[0]}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url, types: ['node.registered'] }) });
  const hook = (await created.json()) as { id: string; secret: string };
  if (!created.ok) throw new Error(`creating the bench webhook: ${created.status} ${JSON.stringify(hook)}`);
  secret = hook.secret;

  // The operator's live stream on the other instance: every node.registered reaches it.
  const arrivedStream = new Map<string, number>();
  const abort = new AbortController();
  const stream = await fetch(`${bases[1]}/api/events`, { headers: { cookie: operator.cookie, 'sec-fetch-site': 'same-origin' }, signal: abort.signal });
  const reading = (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (!data) continue;
          const change = JSON.parse(data) as { type: string; nodeId?: string };
          if (change.type === 'node.registered' && change.nodeId && !arrivedStream.has(change.nodeId)) arrivedStream.set(change.nodeId, Date.now());
        }
      }
    } catch {
      // aborted at the end
    }
  })();

  const ids: string[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const id = `bench-ev-${run}-${i}`;
      ids.push(id);
      const res = await fetch(`${bases[i % 2]}/v1/nodes`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ id, name: id, ownerOrgId: 'org_acme', units: [{ id: 'gpu-0' }] }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`registering ${id}: ${res.status}`);
      // One change at a time: latency, not throughput.
      await new Promise((r) => setTimeout(r, 40));
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && ids.some((id) => !arrivedHook.has(id) || !arrivedStream.has(id))) await new Promise((r) => setTimeout(r, 50));
  } finally {
    abort.abort();
    await reading;
    await fetch(`${bases[0]}/v1/webhooks/${hook.id}`, { method: 'DELETE', headers: { authorization: auth.authorization } }).then((r) => r.arrayBuffer());
    await new Promise((r) => receiver.close(r));
  }
  const of = (arrived: Map<string, number>) => ids.filter((id) => arrived.has(id) && at.has(id)).map((id) => arrived.get(id)! - at.get(id)!);
  return { webhook: figures(of(arrivedHook)), stream: figures(of(arrivedStream)), lost: ids.filter((id) => !arrivedHook.has(id)).length };
}
