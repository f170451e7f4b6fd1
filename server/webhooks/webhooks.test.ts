import { events, notifications, webhookEndpoints } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../clock';
import { listEvents } from '../events/feed';
import { stopEventsListeners } from '../events/listen';
import { writeEvents } from '../events/write';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor } from '../testing/scene';
import { placeVm } from '../vms/place';
import { createWebhook } from './create';
import { dispatchWebhooks } from './dispatch';
import { getWebhook, listWebhookAttempts, listWebhooks } from './list';
import { redeliverWebhook } from './redeliver';
import { deleteWebhook } from './remove';
import { rotateWebhookSecret } from './rotate-secret';
import { CreateWebhookInput } from './schemas';
import { refusedAddress, refusedUrl, sendWebhook } from './send';
import { updateWebhook } from './update';

const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const as = (orgId: string) => ctxFor(db(), orgId, BASE);
const r1 = { nodeId: 'n1', reservationId: 'r1' };

/** A loopback receiver: records every request; answers `status` (or a redirect). */
type Received = { headers: Record<string, string>; body: string };
const receiver = {
  server: null as http.Server | null,
  url: '',
  status: 200,
  got: [] as Received[],
};

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
  receiver.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      receiver.got.push({ headers: req.headers as Record<string, string>, body });
      if (receiver.status === 302) res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      else res.writeHead(receiver.status).end('x'.repeat(200_000));
    });
  });
  await new Promise<void>((r) => receiver.server!.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
});
beforeEach(() => {
  receiver.status = 200;
  receiver.got = [];
});
afterEach(() => {
  delete process.env.TEST_CLOCK;
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  await new Promise((r) => receiver.server?.close(r));
  await stopEventsListeners();
});

const moveClock = async (ms: number) => {
  process.env.TEST_CLOCK = '1';
  await setClockOffsetMs(db(), ms);
};
const subscribe = (orgId: string, types?: string[]) => createWebhook({ ctx: as(orgId), input: CreateWebhookInput.parse({ url: receiver.url, types }) });
const bodies = () => receiver.got.map((g) => JSON.parse(g.body) as { id: string; type: string; data: Record<string, unknown> });

describe('webhook endpoints (docs/product.md §5.7)', () => {
  it('are created with a secret shown once, listed, changed, rotated and deleted — by their own org only', async () => {
    const created = await subscribe(ORG.tenantA, ['vm.reclaimed']);
    expect(created).toMatchObject({ url: receiver.url, types: ['vm.reclaimed'], enabled: true, attempts: 0, secret: expect.stringMatching(/^whsec_/) });
    const listed = await listWebhooks({ ctx: as(ORG.tenantA), input: {} });
    expect(listed.items).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect((await listWebhooks({ ctx: as(ORG.platform), input: {} })).items).toEqual([]);
    for (const org of [ORG.platform, ORG.tenantB]) {
      expect(await failure(getWebhook({ ctx: as(org), input: { webhookId: created.id } }))).toMatchObject({ code: 'not_found' });
      expect(await failure(deleteWebhook({ ctx: as(org), input: { webhookId: created.id } }))).toMatchObject({ code: 'not_found' });
    }
    const off = await updateWebhook({ ctx: as(ORG.tenantA), input: { webhookId: created.id, enabled: false, description: 'ci' } });
    expect(off).toMatchObject({ enabled: false, disabledReason: 'disabled', description: 'ci' });
    const rotated = await rotateWebhookSecret({ ctx: as(ORG.tenantA), input: { webhookId: created.id } });
    expect(rotated.secret).not.toBe(created.secret);
    await deleteWebhook({ ctx: as(ORG.tenantA), input: { webhookId: created.id } });
    expect((await listWebhooks({ ctx: as(ORG.tenantA), input: {} })).items).toEqual([]);
  });

  it('refuses what may not be delivered to: http, credentials, private, link-local and loopback addresses in every form', () => {
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
    try {
      expect(refusedUrl('https://hooks.example.com/x')).toBeNull();
      for (const url of [
        'http://hooks.example.com/x',
        'ftp://hooks.example.com/x',
        'https://user:pw@hooks.example.com/x',
        'https://localhost/x',
        'http://127.0.0.1/x',
        'https://10.0.0.1/x',
        'https://[::1]/x',
        'https://[::ffff:10.0.0.1]/x',
        'https://[::ffff:7f00:1]/x',
        'https://169.254.169.254/latest',
        'https://[fe80::1]/x',
        'https://[fc00::1]/x',
        'https://0.0.0.0/x',
        'https://100.64.0.1/x',
        'https://[64:ff9b::a00:1]/x',
        'https://[2002:a00:1::1]/x',
        'not a url',
      ]) {
        expect(refusedUrl(url), url).not.toBeNull();
      }
      expect(refusedAddress('8.8.8.8')).toBeNull();
      expect(refusedAddress('2001:4860:4860::8888')).toBeNull();
      expect(refusedAddress('::ffff:8.8.8.8')).toBeNull();
      expect(refusedAddress('::ffff:192.168.1.1')).toMatch(/private/);
    } finally {
      process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
    }
    expect(CreateWebhookInput.safeParse({ url: 'https://10.1.1.1/hook' }).success).toBe(false);
    expect(CreateWebhookInput.safeParse({ url: receiver.url, types: ['vm.nope'] }).success).toBe(false);
  });

  it('checks the address again when sending: a refused one gets no request, whatever was registered', async () => {
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
    try {
      const sent = await sendWebhook(receiver.url, '{}', {});
      expect(sent).toMatchObject({ ok: false, error: expect.stringMatching(/http|loopback/) });
      const named = await sendWebhook('https://localhost/hook', '{}', {});
      expect(named.ok).toBe(false);
      expect(await sendWebhook('https://[::ffff:127.0.0.1]:1/hook', '{}', {})).toMatchObject({ ok: false, error: expect.stringMatching(/loopback/) });
      expect(receiver.got).toEqual([]);
    } finally {
      process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
    }
  });

  it('at most 20 per org (409 limit_reached)', async () => {
    for (let i = 0; i < 20; i++) await subscribe(ORG.tenantB);
    expect(await failure(subscribe(ORG.tenantB))).toMatchObject({ code: 'limit_reached', extras: { limit: 20 } });
  });
});

describe('deliveries (docs/product.md §5.7)', () => {
  it("a tenant's endpoint gets its VM's reclaim, signed per Standard Webhooks, verified with the library", async () => {
    const hook = await subscribe(ORG.tenantA, ['vm.reclaimed']);
    await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0', 'gpu-2'], reason: 'back' } });
    expect(await dispatchWebhooks(db())).toBe(1);
    expect(receiver.got).toHaveLength(1);
    const [{ headers, body }] = receiver.got as [Received];
    const verified = new Webhook(hook.secret).verify(body, headers) as { id: string; type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'vm.reclaimed', data: { vmId: 'vm-spot-a', nodeId: 'n1', reason: 'back' } });
    expect(verified.data).not.toHaveProperty('reservationId');
    expect(headers['webhook-id']).toBe(verified.id);
    const [copy] = await db()
      .select()
      .from(events)
      .where(and(eq(events.orgId, ORG.tenantA), eq(events.type, 'vm.reclaimed')));
    expect(verified.id).toBe(copy!.id);
    expect(await dispatchWebhooks(db())).toBe(0);
    const log = await listWebhookAttempts({ ctx: as(ORG.tenantA), input: { webhookId: hook.id } });
    expect(log.items).toEqual([expect.objectContaining({ eventType: 'vm.reclaimed', statusCode: 200, manual: false })]);
  });

  it('a receiver down for a while: retried with backoff, then every event delivered in order, duplicates only with the same webhook-id', async () => {
    const hook = await subscribe(ORG.owner);
    receiver.status = 503;
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0'] } });
    expect(await dispatchWebhooks(db())).toBe(0);
    let state = await getWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    expect(state).toMatchObject({ attempts: 1, failingSince: expect.any(String), nextAttemptAt: expect.any(String) });
    // Not due yet: nothing is sent.
    expect(await dispatchWebhooks(db())).toBe(0);
    expect(receiver.got).toHaveLength(1);
    await moveClock(60_000);
    await dispatchWebhooks(db());
    state = await getWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    expect(state.attempts).toBe(2);

    receiver.status = 200;
    await moveClock(3_600_000);
    expect(await dispatchWebhooks(db())).toBe(3); // released, reclaimed, vm.reclaimed
    state = await getWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    expect(state).toMatchObject({ attempts: 0 });
    expect(state).not.toHaveProperty('failingSince');

    const feed = await listEvents({ ctx: as(ORG.owner), input: {} });
    const delivered = receiver.got.filter((_, i) => i >= 2).map((g) => g.headers['webhook-id']);
    expect(delivered).toEqual(feed.items.map((e) => e.id));
    // The two failed tries were of the first event, with its id.
    expect(receiver.got.slice(0, 2).map((g) => g.headers['webhook-id'])).toEqual([feed.items[0]!.id, feed.items[0]!.id]);
  });

  it('a redirect is not followed, and counts as a failure', async () => {
    const hook = await subscribe(ORG.owner);
    receiver.status = 302;
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await dispatchWebhooks(db());
    expect(receiver.got).toHaveLength(1);
    const log = await listWebhookAttempts({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    expect(log.items[0]).toMatchObject({ statusCode: 302, error: expect.stringMatching(/redirect/) });
  });

  it('24 h of failures disable the endpoint and tell its org; enabling it again resumes where it stopped', async () => {
    const hook = await subscribe(ORG.tenantA);
    receiver.status = 500;
    await placeVm({ ctx: as(ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
    await dispatchWebhooks(db());
    await moveClock(25 * 3_600_000);
    await dispatchWebhooks(db());
    const state = await getWebhook({ ctx: as(ORG.tenantA), input: { webhookId: hook.id } });
    expect(state).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const [told] = await db().select().from(notifications).where(eq(notifications.kind, 'webhook.disabled'));
    expect(told).toMatchObject({ orgId: ORG.tenantA, details: { webhookId: hook.id, lastError: 'answered 500' } });
    const feed = await listEvents({ ctx: as(ORG.tenantA), input: { types: ['webhook.disabled'] } });
    expect(feed.items.map((e) => e.data.webhookId)).toEqual([hook.id]);
    // Nobody else hears of another org's webhook.
    expect((await db().select().from(events).where(eq(events.type, 'webhook.disabled'))).map((r) => r.orgId)).toEqual([ORG.tenantA]);
    const tries = receiver.got.length;
    expect(await dispatchWebhooks(db())).toBe(0);
    expect(receiver.got).toHaveLength(tries);

    receiver.status = 200;
    await updateWebhook({ ctx: as(ORG.tenantA), input: { webhookId: hook.id, enabled: true } });
    expect(await dispatchWebhooks(db())).toBe(2); // vm.placed, then webhook.disabled itself
    expect(
      bodies()
        .slice(tries)
        .map((b) => b.type),
    ).toEqual(['vm.placed', 'webhook.disabled']);
  });

  it('after a rotation both secrets sign for 24 h, then only the new one', async () => {
    const hook = await subscribe(ORG.owner);
    const rotated = await rotateWebhookSecret({ ctx: as(ORG.owner), input: { webhookId: hook.id } });
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await dispatchWebhooks(db());
    const first = receiver.got[0]!;
    expect(first.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(hook.secret).verify(first.body, first.headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(first.body, first.headers)).not.toThrow();

    await moveClock(25 * 3_600_000);
    await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await dispatchWebhooks(db());
    const last = receiver.got.at(-1)!;
    expect(last.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.secret).verify(last.body, last.headers)).not.toThrow();
  });

  it('two instances deliver each event once', async () => {
    await subscribe(ORG.owner);
    await subscribe(ORG.managing);
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0', 'gpu-2'] } });
    const counts = await Promise.all([dispatchWebhooks(db(), 'instance-a'), dispatchWebhooks(db(), 'instance-b')]);
    const more = await Promise.all([dispatchWebhooks(db(), 'instance-a'), dispatchWebhooks(db(), 'instance-b')]);
    // owner: released, reclaimed, 2 × vm.reclaimed; managing: released, reclaimed.
    expect([...counts, ...more].reduce((a, b) => a + b, 0)).toBe(6);
    const ids = receiver.got.map((g) => `${g.headers['webhook-id']}`);
    expect(new Set(ids).size).toBe(4); // released and reclaimed reach both orgs, each with its one id
    expect(receiver.got).toHaveLength(6);
  });

  it('redeliver sends one event again now, with its own webhook-id, and logs it as manual', async () => {
    const hook = await subscribe(ORG.owner);
    await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
    await dispatchWebhooks(db());
    const [event] = (await listEvents({ ctx: as(ORG.owner), input: {} })).items;
    const attempt = await redeliverWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id, eventId: event!.id } });
    expect(attempt).toMatchObject({ eventId: event!.id, statusCode: 200, manual: true });
    expect(receiver.got.map((g) => g.headers['webhook-id'])).toEqual([event!.id, event!.id]);
    // Another org's event is none of its business: a tenant's notice reaches no node owner.
    await db().transaction((tx) =>
      writeEvents(tx, [
        {
          type: 'vm.reclaim_scheduled',
          at: BASE,
          nodeId: 'n1',
          data: { vmId: 'vm-spot-a', nodeId: 'n1' },
          to: { ownerOrgId: ORG.owner, tenantOrgId: ORG.tenantA },
        },
      ]),
    );
    const [theirs] = await db()
      .select()
      .from(events)
      .where(and(eq(events.orgId, ORG.tenantA), eq(events.type, 'vm.reclaim_scheduled')));
    expect(await failure(redeliverWebhook({ ctx: as(ORG.owner), input: { webhookId: hook.id, eventId: theirs!.id } }))).toMatchObject({ code: 'not_found' });
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(row!.leasedBy).toBeNull();
  });
});
