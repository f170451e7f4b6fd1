/**
 * Review findings (an adversarial review of issue 25, mended) for webhook delivery (docs/product.md §5.7), and checks that held up.
 */
import { webhookAttempts } from '@/db/schema';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stopEventsListeners } from '../events/listen';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor } from '../testing/scene';
import { createWebhook } from './create';
import { dispatchWebhooks } from './dispatch';
import { deleteWebhook } from './remove';
import { CreateWebhookInput } from './schemas';
import { updateWebhook } from './update';

const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const as = (orgId: string) => ctxFor(db(), orgId, BASE);
const r1 = { nodeId: 'n1', reservationId: 'r1' };

type Receiver = { server: http.Server; url: string; got: { type: string; id: string }[]; onRequest: (() => Promise<void>) | null };
const receivers: Receiver[] = [];
async function receiver(): Promise<Receiver> {
  const r: Receiver = { server: null as unknown as http.Server, url: '', got: [], onRequest: null };
  r.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { type: string; id: string };
      r.got.push({ type: parsed.type, id: parsed.id });
      const hook = r.onRequest;
      r.onRequest = null;
      void (hook ? hook() : Promise.resolve()).then(() => res.writeHead(200).end('ok'));
    });
  });
  await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
  receivers.push(r);
  return r;
}

beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
});
beforeEach(async () => {
  for (const r of receivers.splice(0)) await new Promise((ok) => r.server.close(ok));
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  for (const r of receivers.splice(0)) await new Promise((ok) => r.server.close(ok));
  await stopEventsListeners();
});

/** Three events for org_owner: reservation.released, reservation.reclaimed, vm.reclaimed. */
async function threeOwnerEvents() {
  await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
  await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0'] } });
}

describe('review: an endpoint changed while the dispatcher holds its lease', () => {
  it('after PATCH url commits, no further event goes to the old URL', async () => {
    const oldR = await receiver();
    const newR = await receiver();
    const hook = await createWebhook({ ctx: as(ORG.owner), input: CreateWebhookInput.parse({ url: oldR.url }) });
    await threeOwnerEvents();
    // The org moves its endpoint while the first delivery is in flight (e.g. the old URL was leaked).
    oldR.onRequest = async () => {
      await updateWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id, url: newR.url } });
    };
    await dispatchWebhooks(db());
    await dispatchWebhooks(db());
    expect(oldR.got.map((g) => g.type)).toEqual(['reservation.released']);
    expect(newR.got.map((g) => g.type)).toEqual(['reservation.reclaimed', 'vm.reclaimed']);
  });

  it('after PATCH types commits, no event of a type it dropped is delivered', async () => {
    const r = await receiver();
    const hook = await createWebhook({ ctx: as(ORG.owner), input: CreateWebhookInput.parse({ url: r.url }) });
    await threeOwnerEvents();
    r.onRequest = async () => {
      await updateWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id, types: ['reservation.released'] } });
    };
    await dispatchWebhooks(db());
    await dispatchWebhooks(db());
    expect(r.got.map((g) => g.type)).toEqual(['reservation.released']);
  });
});

describe('review: held up', () => {
  it('20 per org holds under concurrent creates', async () => {
    const r = await receiver();
    for (let i = 0; i < 18; i++) await createWebhook({ ctx: as(ORG.tenantB), input: CreateWebhookInput.parse({ url: r.url }) });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => createWebhook({ ctx: as(ORG.tenantB), input: CreateWebhookInput.parse({ url: r.url }) })),
    );
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(2);
  });

  it('an endpoint deleted mid-delivery gets nothing more, and the lease is not left behind', async () => {
    const r = await receiver();
    const hook = await createWebhook({ ctx: as(ORG.owner), input: CreateWebhookInput.parse({ url: r.url }) });
    await threeOwnerEvents();
    r.onRequest = async () => {
      await deleteWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    };
    await dispatchWebhooks(db());
    await dispatchWebhooks(db());
    expect(r.got).toHaveLength(1);
    expect(await db().select().from(webhookAttempts)).toEqual([]);
  });

  it('two dispatchers racing many times never deliver an event twice nor out of order', async () => {
    const r = await receiver();
    await createWebhook({ ctx: as(ORG.owner), input: CreateWebhookInput.parse({ url: r.url }) });
    await threeOwnerEvents();
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0', 'gpu-5'] } });
    for (let i = 0; i < 5; i++) await Promise.all([dispatchWebhooks(db(), 'a'), dispatchWebhooks(db(), 'b'), dispatchWebhooks(db(), 'c')]);
    const ids = r.got.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(r.got.map((g) => g.type)).toEqual(['reservation.released', 'reservation.reclaimed', 'vm.reclaimed', 'reservation.released']);
  });
});
