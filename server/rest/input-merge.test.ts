/**
 * Found or checked by review: the merged REST input (server/rest/route.ts readInput) and
 * POST …/reclaim-plan over REST. Each case states what docs/product.md §5 asks.
 */
import * as planRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim-plan/route';
import * as reclaimRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim/route';
import * as listRoute from '@/app/v1/nodes/[nodeId]/reservations/route';
import * as getRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/route';
import { insertReservation } from '@/db/factories';
import * as schema from '@/db/schema';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { hours, ORG } from '../testing/scene';

const scene = useFreshScene(() => new Date());
const db = () => scene().db;
const params = { nodeId: 'n1', id: 'r1' };
const planPath = '/v1/nodes/n1/reservations/r1/reclaim-plan';

type R = Awaited<ReturnType<typeof callRoute>>;
const show = (label: string, r: R) => console.log(label, r.status, r.text.slice(0, 300));

describe('merged REST input: prototype-named fields', () => {
  it('answers a body field named after Object.prototype as an unknown field, not "given by the path"', async () => {
    const keys = await issueKeys(db(), [ORG.managing]);
    for (const k of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const r = await callRoute(planRoute.POST, {
        method: 'POST',
        path: planPath,
        params,
        key: keys[ORG.managing],
        rawBody: `{"count":1,"${k}":{}}`,
        headers: { 'content-type': 'application/json' },
      });
      show(`body ${k}:`, r);
      expect(r.status).toBe(400);
      expect((r.json.errors as { message: string }[])[0]!.message, k).not.toBe('is given by the path');
    }
  });

  it('answers a query parameter named after Object.prototype once as unknown, not "given more than once"', async () => {
    const keys = await issueKeys(db(), [ORG.owner]);
    for (const k of ['constructor', 'toString', '__proto__']) {
      const r = await callRoute(listRoute.GET, { path: `/v1/nodes/n1/reservations?${k}=1`, params: { nodeId: 'n1' }, key: keys[ORG.owner] });
      show(`query ${k}:`, r);
      expect(r.status).toBe(400);
      expect((r.json.errors as { message: string }[])[0]!.message, k).not.toBe('is given more than once');
    }
  });
});

describe('merged REST input: held', () => {
  it('path fields in body/query, limit forms, order, HEAD/OPTIONS, idempotency', async () => {
    const keys = await issueKeys(db(), [ORG.managing, ORG.audience, ORG.other, ORG.owner]);
    const post = (body: unknown, o: { params?: Record<string, string>; key?: string; headers?: Record<string, string>; path?: string } = {}) =>
      callRoute(planRoute.POST, {
        method: 'POST',
        path: o.path ?? planPath,
        params: o.params ?? params,
        key: o.key ?? keys[ORG.managing],
        body,
        headers: o.headers,
      });
    const cases: [string, Promise<R>, number][] = [
      ['nodeId in body', post({ count: 1, nodeId: 'n1' }), 400],
      ['id in body', post({ count: 1, id: 'r1' }), 400],
      ['reservationId in body', post({ count: 1, reservationId: 'r1' }), 400],
      ['NodeId in body', post({ count: 1, NodeId: 'n1' }), 400],
      [
        'dup key',
        callRoute(planRoute.POST, {
          method: 'POST',
          path: planPath,
          params,
          key: keys[ORG.managing],
          rawBody: '{"count":1,"count":2}',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      ['query on POST', post({ count: 1 }, { path: `${planPath}?count=1` }), 400],
      ['bad path + bad body', post({ count: 0 }, { params: { nodeId: 'n1', id: 'bad id' } }), 400],
      ['bad path + good body', post({ count: 1 }, { params: { nodeId: 'n1', id: 'bad id' } }), 404],
      ['bad path + bad idem key', post({ count: 1 }, { params: { nodeId: 'n1', id: 'bad id' }, headers: { 'idempotency-key': 'x'.repeat(256) } }), 400],
      ['unknown reservation', post({ count: 1 }, { params: { nodeId: 'n1', id: 'r-missing' } }), 404],
      ['audience, count 1024', post({ count: 1024 }, { key: keys[ORG.audience] }), 403],
      ['other, count 1024', post({ count: 1024 }, { key: keys[ORG.other] }), 404],
      ['count 1024', post({ count: 1024 }), 409],
      ['count 1025', post({ count: 1025 }), 400],
      ['count 1.5', post({ count: 1.5 }), 400],
      ['count "2"', post({ count: '2' }), 400],
      [
        'count 2.0',
        callRoute(planRoute.POST, {
          method: 'POST',
          path: planPath,
          params,
          key: keys[ORG.managing],
          rawBody: '{"count":2.0}',
          headers: { 'content-type': 'application/json' },
        }),
        200,
      ],
      [
        'count 1e0',
        callRoute(planRoute.POST, {
          method: 'POST',
          path: planPath,
          params,
          key: keys[ORG.managing],
          rawBody: '{"count":1e0}',
          headers: { 'content-type': 'application/json' },
        }),
        200,
      ],
      ['unitIds []', post({ count: 1, unitIds: [] }), 400],
      ['unitIds dup', post({ count: 1, unitIds: ['gpu-0', 'gpu-0'] }), 400],
      ['unitIds stray', post({ count: 1, unitIds: ['gpu-7'] }), 422],
      ['policy other', post({ count: 1, policy: 'greedy' }), 400],
      [
        'body array',
        callRoute(planRoute.POST, {
          method: 'POST',
          path: planPath,
          params,
          key: keys[ORG.managing],
          rawBody: '[]',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      [
        'body null',
        callRoute(planRoute.POST, {
          method: 'POST',
          path: planPath,
          params,
          key: keys[ORG.managing],
          rawBody: 'null',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      ['no key', callRoute(planRoute.POST, { method: 'POST', path: planPath, params, body: { count: 0, nodeId: 'x' } }), 401],
      ['HEAD', callRoute(planRoute.HEAD, { method: 'HEAD', path: planPath, params, key: keys[ORG.managing] }), 405],
      ['OPTIONS', callRoute(planRoute.OPTIONS, { method: 'OPTIONS', path: planPath, params }), 204],
      ['GET', callRoute(planRoute.GET, { path: planPath, params, key: keys[ORG.managing] }), 405],
      ['list limit 0500', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=0500', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 200],
      ['list limit 501', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=501', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit 0', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=0', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit +5', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=%2B5', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit " 5"', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=%205', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit 1e2', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=1e2', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit ٥', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=%D9%A5', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['list limit 5\\n', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=5%0A', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      [
        'list limit twice',
        callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?limit=5&limit=6', params: { nodeId: 'n1' }, key: keys[ORG.owner] }),
        400,
      ],
      ['list nodeId in query', callRoute(listRoute.GET, { path: '/v1/nodes/n1/reservations?nodeId=n2', params: { nodeId: 'n1' }, key: keys[ORG.owner] }), 400],
      ['get id in query', callRoute(getRoute.GET, { path: '/v1/nodes/n1/reservations/r1?id=r2', params, key: keys[ORG.owner] }), 400],
      ['get reservationId in query', callRoute(getRoute.GET, { path: '/v1/nodes/n1/reservations/r1?reservationId=r2', params, key: keys[ORG.owner] }), 400],
      [
        'get bad path + bad query',
        callRoute(getRoute.GET, { path: '/v1/nodes/n1/reservations/bad%20id?x=1', params: { nodeId: 'n1', id: 'bad id' }, key: keys[ORG.owner] }),
        400,
      ],
      ['get HEAD', callRoute(getRoute.HEAD, { method: 'HEAD', path: '/v1/nodes/n1/reservations/r1', params, key: keys[ORG.owner] }), 200],
      [
        'reclaim reservationId in body',
        callRoute(reclaimRoute.POST, {
          method: 'POST',
          path: '/v1/nodes/n1/reservations/r1/reclaim',
          params,
          key: keys[ORG.managing],
          body: { unitIds: ['gpu-3'], dryRun: true, reservationId: 'r2' },
        }),
        400,
      ],
    ];
    const bad: string[] = [];
    for (const [label, p, want] of cases) {
      const r = await p;
      if (r.status !== want) bad.push(`${label}: ${r.status} (want ${want}) ${r.text.slice(0, 200)}`);
    }
    expect(bad).toEqual([]);
  });

  it('idempotency on the plan: same key, other body → 422; same body → replayed', async () => {
    const keys = await issueKeys(db(), [ORG.managing]);
    const h = { 'idempotency-key': 'plan-1' };
    const a = await callRoute(planRoute.POST, { method: 'POST', path: planPath, params, key: keys[ORG.managing], body: { count: 1 }, headers: h });
    const b = await callRoute(planRoute.POST, { method: 'POST', path: planPath, params, key: keys[ORG.managing], body: { count: 2 }, headers: h });
    const c = await callRoute(planRoute.POST, {
      method: 'POST',
      path: planPath,
      params,
      key: keys[ORG.managing],
      rawBody: '{ "count" : 1 }',
      headers: { ...h, 'content-type': 'application/json' },
    });
    show('a', a);
    show('b', b);
    show('c', c);
    expect([a.status, b.status, c.status]).toEqual([200, 422, 200]);
    expect(c.headers.get('idempotent-replayed')).toBe('true');
  });

  it('cancelled and expired: 409 reservation_not_reclaimable, as reclaim', async () => {
    const keys = await issueKeys(db(), [ORG.managing]);
    const base = { nodeId: 'n1', allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], unitIds: ['gpu-6'], releasedUnitIds: ['gpu-6'] };
    await insertReservation(db(), { ...base, id: 'r-exp', startsAt: hours(-10, new Date()), endsAt: hours(-5, new Date()) });
    for (const id of ['r-exp']) {
      const r = await callRoute(planRoute.POST, {
        method: 'POST',
        path: `/v1/nodes/n1/reservations/${id}/reclaim-plan`,
        params: { nodeId: 'n1', id },
        key: keys[ORG.managing],
        body: { count: 1 },
      });
      show(id, r);
      expect(r.status).toBe(409);
      expect(r.json.code).toBe('reservation_not_reclaimable');
    }
    void schema;
  });
});
