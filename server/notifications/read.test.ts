/**
 * Notifications are the acting org's own (docs/product.md §2, §5 `POST /v1/notifications/{id}/read`,
 * §6 the bell and the notifications page): an evicted tenant reads which VM ended, on which node
 * and units, when and why, and marks it read; no other org — the operator included — can see
 * or mark it.
 */
import { notifications } from '@/db/schema';
import { describe, expect, it } from 'vitest';
import * as readRoute from '@/app/v1/notifications/[id]/read/route';
import * as listRoute from '@/app/v1/notifications/route';
import type { DomainError } from '../errors';
import { reclaim } from '../reservations/reclaim';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { getVm } from '../vms/get';
import { countUnreadNotifications } from './count-unread';
import { listNotifications } from './list';
import { markNotificationRead } from './read';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

describe('notifications: read by their org only', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const as = (orgId: string, at = hours(1)) => ctxFor(db(), orgId, at);

  /** The managing org reclaims gpu-0 … gpu-2: vm-spot-a (tenant A) and vm-spot-b (tenant B) end. */
  async function evict() {
    await reclaim({
      ctx: as(ORG.managing, T0),
      input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-1', 'gpu-2'], reason: 'Audience needs it back' },
    });
    const [mine] = (await listNotifications({ ctx: as(ORG.tenantA), input: {} })).items;
    return mine!;
  }

  it('tells the evicted tenant which VM ended, where, when and why; unread until marked', async () => {
    const n = await evict();
    expect(n).toMatchObject({
      kind: 'vm.reclaimed',
      at: T0.toISOString(),
      details: {
        vmId: 'vm-spot-a',
        nodeId: 'n1',
        unitIds: ['gpu-0', 'gpu-1'],
        terminationReason: 'reclaimed',
        terminatedAt: T0.toISOString(),
        reason: 'Audience needs it back',
      },
    });
    expect(n).not.toHaveProperty('readAt');
    // Never the holder or the reservation (§9 h).
    expect(JSON.stringify(n)).not.toMatch(/r1|org_audience|org_managing|org_owner/);
    expect(await countUnreadNotifications({ ctx: as(ORG.tenantA) })).toEqual({ unread: 1 });
    // The VM the notification names shows its end, to its own org.
    expect(await getVm({ ctx: as(ORG.tenantA), input: { vmId: 'vm-spot-a' } })).toMatchObject({
      status: 'terminated',
      terminationReason: 'reclaimed',
      terminatedAt: T0.toISOString(),
    });
  });

  it('marks it read (readAt = now) and keeps the first readAt when marked again; the unread count drops', async () => {
    const n = await evict();
    const read = await markNotificationRead({ ctx: as(ORG.tenantA, hours(1)), input: { notificationId: n.id } });
    expect(read).toEqual({ ...n, readAt: hours(1).toISOString() });
    expect(await countUnreadNotifications({ ctx: as(ORG.tenantA) })).toEqual({ unread: 0 });
    // Tenant B's own is untouched.
    expect(await countUnreadNotifications({ ctx: as(ORG.tenantB) })).toEqual({ unread: 1 });

    const again = await markNotificationRead({ ctx: as(ORG.tenantA, hours(2)), input: { notificationId: n.id } });
    expect(again.readAt).toBe(hours(1).toISOString());
    const [listed] = (await listNotifications({ ctx: as(ORG.tenantA), input: {} })).items;
    expect(listed).toEqual(read);
  });

  it('is 404 to every other org — the operator, the reclaimer, the node owner, another tenant — and to an unknown id', async () => {
    const n = await evict();
    for (const orgId of [ORG.platform, ORG.managing, ORG.owner, ORG.audience, ORG.tenantB, ORG.other]) {
      expect((await failure(markNotificationRead({ ctx: as(orgId), input: { notificationId: n.id } })))?.code, orgId).toBe('not_found');
      expect(
        (await listNotifications({ ctx: as(orgId), input: {} })).items.map((x) => x.id),
        orgId,
      ).not.toContain(n.id);
    }
    expect((await failure(markNotificationRead({ ctx: as(ORG.tenantA), input: { notificationId: 'ntf_nope' } })))?.code).toBe('not_found');
    const rows = await db().select({ id: notifications.id, readAt: notifications.readAt }).from(notifications);
    expect(rows.every((r) => r.readAt === null)).toBe(true);
  });
});

describe('REST: POST /v1/notifications/{id}/read', () => {
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;

  it('answers the own org 200 with readAt, another org 404; GET /v1/notifications shows readAt', async () => {
    const keys = await issueKeys(db(), [ORG.managing, ORG.tenantA, ORG.tenantB, ORG.platform]);
    await reclaim({ ctx: ctxFor(db(), ORG.managing, new Date()), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'] } });
    const listed = await callRoute(listRoute.GET, { path: '/v1/notifications', key: keys[ORG.tenantA] });
    const [n] = listed.json.items as { id: string; readAt?: string }[];
    expect(n).toBeDefined();
    expect(n).not.toHaveProperty('readAt');

    const path = `/v1/notifications/${n!.id}/read`;
    for (const orgId of [ORG.tenantB, ORG.platform]) {
      const res = await callRoute(readRoute.POST, { method: 'POST', path, params: { id: n!.id }, key: keys[orgId] });
      expect(res.status, orgId).toBe(404);
      expect(res.json.code).toBe('not_found');
    }
    const res = await callRoute(readRoute.POST, { method: 'POST', path, params: { id: n!.id }, key: keys[ORG.tenantA] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: n!.id, kind: 'vm.reclaimed', readAt: expect.any(String) });
    const after = await callRoute(listRoute.GET, { path: '/v1/notifications', key: keys[ORG.tenantA] });
    expect((after.json.items as { readAt?: string }[])[0]!.readAt).toBe(res.json.readAt);
    expect((await callRoute(readRoute.POST, { method: 'POST', path, params: { id: n!.id } })).status).toBe(401);
  });
});
