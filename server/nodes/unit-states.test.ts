import { insertNode, insertReservation, insertVm } from '@/db/factories';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { buildScene, ctxFor, hours, ORG, T0 } from '../testing/scene';
import { getNode } from './get';
import { listNodes } from './list';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await buildScene(tdb.db);
  // gpu-5: a needs-review reservation is impossible next to r1 on the same units, so a second
  // node shows withheld; gpu-6 on n1 gets an upcoming reservation for the audience.
  await insertReservation(tdb.db, { id: 'r-next', nodeId: 'n1', unitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(5) });
  await insertNode(tdb.db, { id: 'n2', ownerOrgId: ORG.other, topologyGen: 2 });
  await insertReservation(tdb.db, { id: 'r-old', nodeId: 'n2', unitIds: ['gpu-0'], allowedOrgIds: [ORG.audience], startsAt: hours(-5), topologyGen: 1 });
  await insertVm(tdb.db, { id: 'vm-n2', nodeId: 'n2', orgId: ORG.tenantA, tier: 'on-demand', unitIds: ['gpu-1'], startedAt: hours(-1) });
});
afterAll(async () => tdb.close());

const states = (units: { state: string }[]) => units.map((u) => u.state);

describe('unit states (docs/product.md §3)', () => {
  it('colours every unit by the precedence rules', async () => {
    const n1 = await getNode({ ctx: ctxFor(tdb.db, ORG.platform), input: { nodeId: 'n1' } });
    expect(states(n1.units)).toEqual(['spot-occupied', 'spot-occupied', 'spot-occupied', 'released', 'reserved-occupied', 'reserved', 'free', 'occupied']);
    expect(n1.counts).toEqual({ withheld: 0, 'spot-occupied': 3, released: 1, 'reserved-occupied': 1, reserved: 1, occupied: 1, free: 1 });
    const n2 = await getNode({ ctx: ctxFor(tdb.db, ORG.platform), input: { nodeId: 'n2' } });
    expect(states(n2.units).slice(0, 3)).toEqual(['withheld', 'occupied', 'free']);
  });

  it('follows the clock: past endsAt the units are no longer held', async () => {
    const later = await getNode({ ctx: ctxFor(tdb.db, ORG.platform, hours(24)), input: { nodeId: 'n1' } });
    expect(states(later.units)).toEqual(['occupied', 'occupied', 'occupied', 'free', 'occupied', 'free', 'reserved', 'occupied']);
  });

  it('shows reservation and VM ids only to those who may see them (docs/product.md §2)', async () => {
    const view = async (org: string) => (await getNode({ ctx: ctxFor(tdb.db, org, T0), input: { nodeId: 'n1' } })).units;
    const owner = await view(ORG.owner);
    expect(owner.map((u) => u.vmId ?? null)).toEqual(['vm-spot-a', 'vm-spot-a', 'vm-spot-b', null, 'vm-res', null, null, 'vm-od']);
    expect(owner[6]).toMatchObject({ state: 'free', reservationId: 'r-next' });

    const managing = await view(ORG.managing);
    // Managing orgs see VMs on the reservation's units, not elsewhere; not the other reservation.
    expect(managing.map((u) => u.vmId ?? null)).toEqual(['vm-spot-a', 'vm-spot-a', 'vm-spot-b', null, 'vm-res', null, null, null]);
    expect(managing[6]).not.toHaveProperty('reservationId');

    const tenant = await view(ORG.tenantA);
    expect(tenant.map((u) => u.vmId ?? null)).toEqual(['vm-spot-a', 'vm-spot-a', null, null, null, null, null, null]);
    expect(tenant.some((u) => u.reservationId)).toBe(false);
    expect(tenant.map((u) => u.state)).toEqual(states(owner));

    const audience = await view(ORG.audience);
    expect(audience.map((u) => u.vmId ?? null)).toEqual([null, null, null, null, 'vm-res', null, null, null]);
    expect(audience[0]).toMatchObject({ reservationId: 'r1' });
  });

  it('says to everyone when a reservation ahead takes a unit, naming it only to those who may see it (issue 23)', async () => {
    for (const org of [ORG.platform, ORG.owner, ORG.audience, ORG.managing, ORG.tenantA, ORG.tenantB]) {
      const units = (await getNode({ ctx: ctxFor(tdb.db, org, T0), input: { nodeId: 'n1' } })).units;
      // gpu-6 is free now; r-next holds it from hours(5). No other unit has a reservation ahead.
      expect(units[6], org).toMatchObject({ id: 'gpu-6', state: 'free', reservedFrom: hours(5).toISOString() });
      expect(
        units.filter((u) => u.reservedFrom).map((u) => u.id),
        org,
      ).toEqual(['gpu-6']);
      const named = org === ORG.platform || org === ORG.owner || org === ORG.audience;
      expect(units[6]!.reservationId, org).toBe(named ? 'r-next' : undefined);
    }
    // Once it starts, the unit is held (the state says so) and nothing lies ahead.
    const later = await getNode({ ctx: ctxFor(tdb.db, ORG.tenantA, hours(6)), input: { nodeId: 'n1' } });
    expect(later.units[6]).toMatchObject({ state: 'reserved' });
    expect(later.units[6]).not.toHaveProperty('reservedFrom');
  });

  it('is 404 for an unknown node', async () => {
    await expect(getNode({ ctx: ctxFor(tdb.db, ORG.owner), input: { nodeId: 'nope' } })).rejects.toBeInstanceOf(DomainError);
  });
});

describe('listNodes', () => {
  it('pages by cursor and filters by owner', async () => {
    const first = await listNodes({ ctx: ctxFor(tdb.db, ORG.other), input: { limit: 1 } });
    expect(first.items.map((n) => n.id)).toEqual(['n1']);
    expect(first.nextCursor).toBeTruthy();
    const second = await listNodes({ ctx: ctxFor(tdb.db, ORG.other), input: { limit: 1, cursor: first.nextCursor } });
    expect(second.items.map((n) => n.id)).toEqual(['n2']);
    expect(second.nextCursor).toBeUndefined();
    const owned = await listNodes({ ctx: ctxFor(tdb.db, ORG.other), input: { ownerOrgId: ORG.owner } });
    expect(owned.items.map((n) => [n.id, n.counts.free])).toEqual([['n1', 1]]);
  });

  it('refuses a cursor it did not hand out', async () => {
    await expect(listNodes({ ctx: ctxFor(tdb.db, ORG.other), input: { cursor: 'garbage' } })).rejects.toMatchObject({ code: 'invalid_request' });
    // Well-formed base64url JSON, but not an id: NUL would reach PostgreSQL.
    const nul = Buffer.from(JSON.stringify({ k: 'a\u0000' })).toString('base64url');
    await expect(listNodes({ ctx: ctxFor(tdb.db, ORG.other), input: { cursor: nul } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
