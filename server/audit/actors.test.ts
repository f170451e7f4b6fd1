/**
 * Who acts, as the audit trail records it: the system actor (server/context.ts `systemCtx`)
 * and org-level events without a node (docs/product.md §5 Objects "Audit event"), read back
 * through listAuditEvents per docs/product.md §2.
 */
import { gpuUnits } from '@/db/factories';
import { auditEvents } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { systemCtx, type Ctx } from '../context';
import { registerNode } from '../nodes/register';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { listAuditEvents } from './list';
import { writeAuditEvent } from './write';

const scene = useFreshScene();
const db = () => scene().db;

/** The events `orgId` reads, as `[action, actorOrgId or null, nodeId or null]`. */
async function read(orgId: string, input: Parameters<typeof listAuditEvents>[0]['input'] = {}) {
  const page = await listAuditEvents({ ctx: ctxFor(db(), orgId, hours(1)), input });
  return page.items.map((e) => [e.action, e.actorOrgId ?? null, e.nodeId ?? null]);
}

/** Writes one org-level event as `ctx`, as the API key verbs do (server/api-keys/{create,revoke}.ts). */
async function writeOrgLevel(ctx: Ctx, action: 'api_key.create' | 'api_key.revoke' | 'sign_in.lockout') {
  const details =
    action === 'sign_in.lockout'
      ? {
          action,
          details: { scope: 'account' as const, email: 'a@example.test', userId: 'u1', failures: 10, windowMinutes: 15, lockedUntil: T0.toISOString() },
        }
      : { action, details: { apiKeyId: 'key_1', name: 'k', prefix: 'gpuk_123456' } };
  await db().transaction((tx) => writeAuditEvent(tx, ctx, { unitIds: [], ...details }));
}

describe('the system actor', () => {
  it('acts as the platform org, via schedule, naming its job', () => {
    const ctx = systemCtx(db(), 'bench', T0);
    expect(ctx).toMatchObject({ orgId: ORG.platform, actor: { kind: 'system', job: 'bench' }, via: 'schedule', now: T0, clock: 'fixed' });
    expect(systemCtx(db(), 'schedule', T0, 'database').clock).toBe('database');
    for (const bad of ['', 'Seed', 'seed job', 'x'.repeat(65)]) expect(() => systemCtx(db(), bad, T0)).toThrow(/job/);
  });

  it('is an operator: a verb it calls is audited as the platform, via schedule, with the job', async () => {
    await registerNode({ ctx: systemCtx(db(), 'bench', T0), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units: gpuUnits(2) } });
    const [row, ...more] = await db().select().from(auditEvents).where(eq(auditEvents.nodeId, 'n9'));
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      action: 'node.register',
      actorOrgId: ORG.platform,
      actorJob: 'bench',
      actorUserId: null,
      actorApiKeyId: null,
      via: 'schedule',
    });
    // The platform's actorOrgId shows to everyone who sees the event (§2); the job stays in the database.
    const [seenByOwner] = (await listAuditEvents({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n9' } })).items;
    expect(seenByOwner).toMatchObject({ action: 'node.register', actorOrgId: ORG.platform, via: 'schedule', nodeId: 'n9', unitIds: ['gpu-0', 'gpu-1'] });
    expect(seenByOwner).not.toHaveProperty('actorJob');
    expect(await read(ORG.other, { nodeId: 'n9' })).toEqual([]);
  });
});

describe('org-level events (no node)', () => {
  it('show to the operator and the actor’s org only; nodeId is omitted, never null', async () => {
    await writeOrgLevel(systemCtx(db(), 'seed', T0), 'api_key.create');
    await writeOrgLevel(ctxFor(db(), ORG.tenantA, T0), 'api_key.revoke');

    expect(await read(ORG.platform)).toEqual([
      ['api_key.revoke', ORG.tenantA, null],
      ['api_key.create', ORG.platform, null],
    ]);
    expect(await read(ORG.tenantA)).toEqual([['api_key.revoke', ORG.tenantA, null]]);
    // Not the node owner's, not a managing org's, not anyone else's: there is no node or reservation to relate to.
    for (const orgId of [ORG.owner, ORG.managing, ORG.audience, ORG.tenantB, ORG.other]) expect(await read(orgId), orgId).toEqual([]);

    const items = (await listAuditEvents({ ctx: ctxFor(db(), ORG.platform, hours(1)), input: {} })).items;
    for (const e of items) {
      expect(e).not.toHaveProperty('nodeId');
      expect(e).not.toHaveProperty('reservationId');
    }
    expect(items[0]).toMatchObject({ via: 'api', unitIds: [], details: {} });
    expect(items[1]).toMatchObject({ via: 'schedule' });
    // A node filter never matches an event without a node; an action filter finds them.
    expect(await read(ORG.platform, { nodeId: 'n1' })).toEqual([]);
    expect(await read(ORG.platform, { action: 'api_key.create' })).toEqual([['api_key.create', ORG.platform, null]]);
  });

  it('record the actor columns in full', async () => {
    await writeOrgLevel(ctxFor(db(), ORG.tenantA, T0), 'sign_in.lockout');
    await writeOrgLevel(systemCtx(db(), 'seed', T0), 'api_key.create');
    const rows = await db().select().from(auditEvents).orderBy(auditEvents.seq);
    expect(rows.map((r) => [r.action, r.actorOrgId, r.actorApiKeyId, r.actorJob, r.via, r.nodeId, r.reservationId])).toEqual([
      ['sign_in.lockout', ORG.tenantA, `key_${ORG.tenantA}`, null, 'api', null, null],
      ['api_key.create', ORG.platform, null, 'seed', 'schedule', null, null],
    ]);
  });

  it('take no node in the type, and node events need one', () => {
    // Compile-time only: the function is never called.
    const _check = (tx: Parameters<typeof writeAuditEvent>[0], ctx: Ctx) => [
      // @ts-expect-error an org-level event has no node
      writeAuditEvent(tx, ctx, { action: 'api_key.create', nodeId: 'n1', unitIds: [], details: {} }),
      // @ts-expect-error a node event names its node
      writeAuditEvent(tx, ctx, { action: 'vm.place', unitIds: [], details: {} }),
    ];
    expect(_check).toBeTypeOf('function');
  });
});

describe('the database keeps events well-formed (migration 0005)', () => {
  const base = { at: T0, action: 'api_key.create' as const, actorOrgId: ORG.platform, via: 'schedule' as const, unitIds: [], details: {} };
  /** The constraint PostgreSQL names when refusing `values`, or null when it accepts them. */
  async function refusal(values: Partial<typeof auditEvents.$inferInsert>): Promise<string | null> {
    try {
      await db()
        .insert(auditEvents)
        .values({ ...base, id: `evt_${Math.random()}`, ...values });
      return null;
    } catch (e) {
      const cause = (e as { cause?: { constraint_name?: string } }).cause;
      return cause?.constraint_name ?? String(e);
    }
  }

  it('refuses an event with no actor, or two', async () => {
    expect(await refusal({})).toBe('audit_events_one_actor');
    expect(await refusal({ actorJob: 'seed', actorUserId: 'u1' })).toBe('audit_events_one_actor');
    expect(await refusal({ actorJob: 'seed' })).toBeNull();
  });

  it('refuses a reservation without its node (reservation ids are per node)', async () => {
    expect(await refusal({ actorJob: 'seed', reservationId: 'r1' })).toBe('audit_events_reservation_on_node');
    expect(await refusal({ actorJob: 'seed', action: 'reservation.update', nodeId: 'n1', reservationId: 'r1' })).toBeNull();
  });
});
