/**
 * List cursors resolve only under the caller's visibility (docs/product.md §5 Lists, §8 R6): a
 * cursor naming another org's notification, or an audit event the caller may not see, is 400
 * like one naming nothing (issue 18: it was accepted, answering 200 `[]`, which told the caller
 * that the id existed).
 */
import { auditEvents, notifications } from '@/db/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import * as auditRoute from '@/app/v1/audit/route';
import * as notificationsRoute from '@/app/v1/notifications/route';
import { listAuditEvents } from './audit/list';
import type { DomainError } from './errors';
import { listNotifications } from './notifications/list';
import { encodeCursor } from './pagination';
import { callRoute, issueKeys } from './testing/rest';
import { useFreshScene } from './testing/fresh-scene';
import { ctxFor, ORG, T0 } from './testing/scene';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

const details = { vmId: 'vm-x', nodeId: 'n1', unitIds: ['gpu-0'], terminationReason: 'reclaimed' as const, terminatedAt: T0.toISOString() };

describe('cursors name only what the caller may see', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });

  async function notify(id: string, orgId: string) {
    await db().insert(notifications).values({ id, orgId, at: T0, kind: 'vm.reclaimed', message: 'x', details });
  }
  async function event(id: string, orgId: string, subject: { nodeId?: string; reservationId?: string } = {}) {
    const action = subject.nodeId ? 'vm.place' : 'api_key.create';
    await db()
      .insert(auditEvents)
      .values({
        id,
        at: T0,
        action,
        actorOrgId: orgId,
        actorApiKeyId: `key_${orgId}`,
        via: 'api',
        nodeId: subject.nodeId ?? null,
        reservationId: subject.reservationId ?? null,
        unitIds: [],
        details: {},
      });
  }

  it('notifications: another org’s id is 400 like an unknown one; the org’s own pages on', async () => {
    await notify('ntf-a1', ORG.tenantA);
    await notify('ntf-a2', ORG.tenantA);
    await notify('ntf-b1', ORG.tenantB);
    const as = (orgId: string) => ctxFor(db(), orgId, T0);
    for (const [orgId, cursor] of [
      [ORG.tenantB, 'ntf-a2'],
      [ORG.platform, 'ntf-a2'],
      [ORG.tenantB, 'ntf-nope'],
    ] as const) {
      const err = await failure(listNotifications({ ctx: as(orgId), input: { cursor: encodeCursor(cursor) } }));
      expect(err?.code, `${orgId} at ${cursor}`).toBe('invalid_request');
      expect(err?.extras.errors).toEqual([{ path: 'query.cursor', message: 'is not a cursor this API returned' }]);
    }
    const page = await listNotifications({ ctx: as(ORG.tenantA), input: { cursor: encodeCursor('ntf-a2') } });
    expect(page.items.map((n) => n.id)).toEqual(['ntf-a1']);
  });

  it('audit: an event the caller may not see is 400 like an unknown one; visible ones page on', async () => {
    // The scene's n1 is org_owner's; r1 is managed by org_managing.
    await event('evt-owner-1', ORG.owner, { nodeId: 'n1' });
    await event('evt-tenant-org', ORG.tenantA);
    await event('evt-audience-r1', ORG.audience, { nodeId: 'n1', reservationId: 'r1' });
    await event('evt-owner-2', ORG.owner, { nodeId: 'n1' });
    const page = (orgId: string, cursor: string) => listAuditEvents({ ctx: ctxFor(db(), orgId, T0), input: { cursor: encodeCursor(cursor) } });

    // Invisible: an org-level event of another org; an event on a node it has nothing to do with.
    for (const [orgId, cursor] of [
      [ORG.owner, 'evt-tenant-org'],
      [ORG.other, 'evt-owner-2'],
      [ORG.managing, 'evt-owner-2'],
      [ORG.tenantB, 'evt-audience-r1'],
      [ORG.owner, 'evt-nope'],
    ] as const) {
      const err = await failure(page(orgId, cursor));
      expect(err?.code, `${orgId} at ${cursor}`).toBe('invalid_request');
      expect(err?.extras.errors).toEqual([{ path: 'query.cursor', message: 'is not a cursor this API returned' }]);
    }
    // Visible by each relation: the node owner, the managing org (its reservation's), the actor.
    expect((await page(ORG.owner, 'evt-owner-2')).items.map((e) => e.id)).toEqual(['evt-audience-r1', 'evt-owner-1']);
    expect((await page(ORG.managing, 'evt-audience-r1')).items.map((e) => e.id)).toEqual([]);
    expect((await page(ORG.tenantA, 'evt-tenant-org')).items.map((e) => e.id)).toEqual([]);
    // The operator sees every event, so every event's id is a cursor for it.
    expect((await page(ORG.platform, 'evt-tenant-org')).items.map((e) => e.id)).toEqual(['evt-owner-1']);
  });

  it('over REST: 400 problem+json naming query.cursor, the same answer as for an unknown id', async () => {
    await notify('ntf-a1', ORG.tenantA);
    await event('evt-tenant-org', ORG.tenantA);
    // Transports read PostgreSQL's clock; the events' times do not matter to a cursor.
    const keys = await issueKeys(db(), [ORG.tenantB, ORG.owner]);
    const ask = async (route: typeof auditRoute, path: string, key: string) => {
      const res = await callRoute(route.GET, { path, key });
      return { status: res.status, code: res.json.code, errors: res.json.errors, detail: res.json.detail };
    };
    const foreignNotification = await ask(notificationsRoute, `/v1/notifications?cursor=${encodeCursor('ntf-a1')}`, keys[ORG.tenantB]!);
    const unknownNotification = await ask(notificationsRoute, `/v1/notifications?cursor=${encodeCursor('ntf-zz')}`, keys[ORG.tenantB]!);
    expect(foreignNotification).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'query.cursor' }] });
    expect(foreignNotification).toEqual(unknownNotification);
    const foreignEvent = await ask(auditRoute, `/v1/audit?cursor=${encodeCursor('evt-tenant-org')}`, keys[ORG.owner]!);
    const unknownEvent = await ask(auditRoute, `/v1/audit?cursor=${encodeCursor('evt-zz')}`, keys[ORG.owner]!);
    expect(foreignEvent).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(foreignEvent).toEqual(unknownEvent);
  });
});
