/**
 * Webhooks under the storm (docs/product.md §5.7, docs/reliability.md): a loopback receiver and
 * one endpoint per watched org, created before the storm; the receiver can go down (answering
 * 503) for a while mid-run; afterwards every org's deliveries are compared with its feed
 * (`GET /v1/events`): every event delivered, in the feed's order, duplicates only with the same
 * `webhook-id` — across a killed instance and the outage.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { rest } from './http';

type Delivery = { id: string; type: string };

export class WebhookWatch {
  private server: http.Server | null = null;
  private readonly secrets = new Map<string, string>();
  /** Per endpoint: the deliveries answered 2xx, in arrival order. */
  private readonly delivered = new Map<string, Delivery[]>();
  /** Per org: its endpoint, and where its feed stood when the endpoint was made. */
  private readonly endpoints = new Map<string, { id: string; after: string }>();
  private down = false;
  /** Requests refused while down, and signatures that did not verify. */
  refused = 0;
  badSignatures = 0;

  constructor(
    private readonly base: string,
    private readonly keys: Record<string, string>,
    private readonly orgs: readonly string[],
  ) {}

  /** Starts the receiver and makes each org's endpoint; call while nothing else writes. */
  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const endpoint = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
        if (this.down) {
          this.refused += 1;
          res.writeHead(503).end();
          return;
        }
        try {
          const e = new Webhook(this.secrets.get(endpoint) ?? '').verify(body, req.headers as Record<string, string>) as { id: string; type: string };
          this.delivered.get(endpoint)?.push({ id: e.id, type: e.type });
          res.writeHead(204).end();
        } catch {
          this.badSignatures += 1;
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const port = (this.server.address() as AddressInfo).port;
    for (const org of this.orgs) {
      const { items, nextCursor } = await this.readFeed(org, undefined);
      void items;
      const created = await rest(this.base, this.keys[org]!, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/${encodeURIComponent(org)}` });
      if (created.status !== 201) throw new Error(`webhook for ${org}: ${created.status} ${created.text}`);
      const hook = created.body as { id: string; secret: string };
      this.secrets.set(org, hook.secret);
      this.delivered.set(org, []);
      this.endpoints.set(org, { id: hook.id, after: nextCursor });
    }
  }

  /** The receiver goes down (503) or comes back. */
  setDown(down: boolean): void {
    this.down = down;
  }

  /** The org's whole feed after `after`, every page. */
  private async readFeed(org: string, after: string | undefined): Promise<{ items: Delivery[]; nextCursor: string }> {
    const items: Delivery[] = [];
    let cursor = after;
    for (;;) {
      const r = await rest(this.base, this.keys[org]!, 'GET', `/v1/events?limit=500${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
      if (r.status !== 200) throw new Error(`feed of ${org}: ${r.status} ${r.text}`);
      const page = r.body as { items: Delivery[]; nextCursor: string };
      items.push(...page.items.map((e) => ({ id: e.id, type: e.type })));
      cursor = page.nextCursor;
      if (page.items.length < 500) return { items, nextCursor: cursor };
    }
  }

  /**
   * Waits (at most `timeoutMs`) until every org's endpoint has caught up with its feed, then
   * compares them.
   * @returns report lines, and failures (none when every event arrived once or more, in order).
   */
  async verify(timeoutMs: number): Promise<{ lines: string[]; failures: string[] }> {
    const lines: string[] = [];
    const failures: string[] = [];
    const deadline = Date.now() + timeoutMs;
    const expected = new Map<string, Delivery[]>();
    for (const [org, e] of this.endpoints) expected.set(org, (await this.readFeed(org, e.after)).items);
    const firsts = (org: string) => {
      const seen = new Set<string>();
      return this.delivered.get(org)!.filter((d) => !seen.has(d.id) && seen.add(d.id));
    };
    while (Date.now() < deadline && [...expected].some(([org, want]) => firsts(org).length < want.length)) {
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const [org, want] of expected) {
      const got = firsts(org);
      const all = this.delivered.get(org)!;
      const inOrder = got.length === want.length && got.every((d, i) => d.id === want[i]!.id);
      lines.push(
        `webhooks of ${org}: ${want.length} events in its feed, ${got.length} delivered${inOrder ? ' in order' : ''}, ${all.length - got.length} duplicate deliveries (same webhook-id)`,
      );
      if (!inOrder) {
        const at = want.findIndex((w, i) => got[i]?.id !== w.id);
        failures.push(
          `webhooks of ${org}: ${got.length} of ${want.length} delivered; first difference at #${at}: expected ${want[at]?.type} ${want[at]?.id}, got ${got[at] ? `${got[at].type} ${got[at].id}` : 'nothing'}`,
        );
      }
    }
    lines.push(`webhook receiver: ${this.refused} requests refused while it was down, ${this.badSignatures} signatures that did not verify`);
    if (this.badSignatures > 0) failures.push(`${this.badSignatures} webhook signatures did not verify`);
    return { lines, failures };
  }

  async stop(): Promise<void> {
    await new Promise((r) => (this.server ? this.server.close(r) : r(undefined)));
  }
}
