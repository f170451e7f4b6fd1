import { createDb } from '@/db/client';
import { gpuUnits, insertReservation, insertVm } from '@/db/factories';
import { auditEvents, reservations } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listAuditEvents } from './audit/list';
import { DomainError } from './errors';
import { getNode } from './nodes/get';
import { registerNode } from './nodes/register';
import { changeTopology } from './nodes/topology';
import { listNotifications } from './notifications/list';
import { cancelReservation } from './reservations/cancel';
import { createReservation } from './reservations/create';
import { getReservation } from './reservations/get';
import { reaffirm } from './reservations/reaffirm';
import { reclaim } from './reservations/reclaim';
import { release } from './reservations/release';
import { updateReservation } from './reservations/update';
import { useFreshScene } from './testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from './testing/scene';
import { getVm } from './vms/get';
import { listVms } from './vms/list';
import { placeVm } from './vms/place';
import { terminateVm } from './vms/terminate';

const scene = useFreshScene();
const db = () => scene().db;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
}
const states = async (nodeId = 'n1', now = T0) => (await getNode({ ctx: ctxFor(db(), ORG.platform, now), input: { nodeId } })).units.map((u) => u.state);

describe('placement (docs/product.md §5.3)', () => {
  it('spot goes on released or free units only', async () => {
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } }))).toBe('ok');
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } }))).toBe('ok');
    const err = await placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-5'], tier: 'spot' } }).catch((e: DomainError) => e);
    expect([err instanceof DomainError && err.code, err instanceof DomainError && err.extras.unitIds]).toEqual(['unit_unavailable', ['gpu-5']]);
  });

  it('on-demand goes on free units only', async () => {
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'on-demand' } }))).toBe('unit_unavailable');
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'on-demand' } }))).toBe('ok');
  });

  it('reserved goes on units the active reservation holds and has not released, for its audience', async () => {
    const place = (orgId: string, unitIds: string[]) =>
      code(placeVm({ ctx: ctxFor(db(), orgId), input: { nodeId: 'n1', unitIds, tier: 'reserved', reservationId: 'r1' } }));
    expect(await place(ORG.audience, ['gpu-5'])).toBe('ok');
    expect(await place(ORG.audience, ['gpu-3'])).toBe('unit_unavailable');
    expect(await place(ORG.audience, ['gpu-6'])).toBe('unit_unavailable');
    expect(await place(ORG.owner, ['gpu-5'])).toBe('forbidden');
    expect(await place(ORG.managing, ['gpu-5'])).toBe('forbidden');
    expect(await place(ORG.other, ['gpu-5'])).toBe('not_found');
  });

  it('a unit runs one VM: unit_occupied comes before unit_unavailable and names only visible VMs', async () => {
    const err = await placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-0', 'gpu-5'], tier: 'spot' } }).catch(
      (e: DomainError) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('unit_occupied');
    expect((err as DomainError).extras).toMatchObject({ unitIds: ['gpu-0'], vmIds: [] });
    const mine = await placeVm({ ctx: ctxFor(db(), ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-0'], tier: 'spot' } }).catch((e: DomainError) => e);
    expect((mine as DomainError).extras.vmIds).toEqual(['vm-spot-a']);
  });

  it('refuses a reserved VM on an inactive reservation and any VM on withheld units', async () => {
    await insertReservation(db(), { id: 'r-later', nodeId: 'n1', unitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(5) });
    expect(
      await code(placeVm({ ctx: ctxFor(db(), ORG.audience), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'reserved', reservationId: 'r-later' } })),
    ).toBe('reservation_not_active');
    await changeTopology({ ctx: ctxFor(db(), ORG.platform), input: { nodeId: 'n1', units: gpuUnits(8, 'H200') } });
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.audience), input: { nodeId: 'n1', unitIds: ['gpu-5'], tier: 'reserved', reservationId: 'r1' } }))).toBe(
      'reservation_needs_review',
    );
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } }))).toBe('unit_unavailable');
    expect(await code(placeVm({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', unitIds: ['gpu-99'], tier: 'spot' } }))).toBe('unknown_unit');
  });
});

describe('reservation status follows the one clock (docs/product.md §4)', () => {
  it('pending → active → expired as time moves, with the grid to match', async () => {
    const r = await createReservation({
      ctx: ctxFor(db(), ORG.owner),
      input: { nodeId: 'n1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(2), endsAt: hours(4) },
    });
    expect(r.status).toBe('pending');
    expect((await states())[6]).toBe('free');
    const at = async (h: number) => (await getReservation({ ctx: ctxFor(db(), ORG.owner, hours(h)), input: { nodeId: 'n1', reservationId: r.id } })).status;
    expect(await at(1.99)).toBe('pending');
    expect(await at(2)).toBe('active');
    expect((await states('n1', hours(3)))[6]).toBe('reserved');
    expect(await at(3.99)).toBe('active');
    expect(await at(4)).toBe('expired');
    expect((await states('n1', hours(4)))[6]).toBe('free');
  });

  it('cancel: units stop being held, VMs keep running, fields stay', async () => {
    const res = await cancelReservation({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', reservationId: 'r1', reason: 'contract ended' } });
    expect(res).toMatchObject({ status: 'cancelled', releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], reason: 'contract ended' });
    expect(await states('n1', hours(1))).toEqual(['occupied', 'occupied', 'occupied', 'free', 'occupied', 'free', 'free', 'occupied']);
    expect(await code(cancelReservation({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', reservationId: 'r1' } }))).toBe(
      'reservation_not_active',
    );
    // The units can be reserved again (cancelled rows leave the exclusion constraint).
    expect(
      await code(
        createReservation({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', reservedUnitIds: ['gpu-3', 'gpu-5'], allowedOrgIds: [ORG.other] } }),
      ),
    ).toBe('ok');
  });
});

describe('create and edit (docs/product.md §5)', () => {
  it('refuses overlaps, busy units now, unknown units and orgs', async () => {
    const create = (input: Partial<Parameters<typeof createReservation>[0]['input']>) =>
      code(createReservation({ ctx: ctxFor(db(), ORG.owner), input: { nodeId: 'n1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], ...input } }));
    expect(await create({ reservedUnitIds: ['gpu-5'], startsAt: hours(10) })).toBe('reservation_overlap');
    expect(await create({ reservedUnitIds: ['gpu-5'], startsAt: hours(24) })).toBe('ok');
    expect(await create({ reservedUnitIds: ['gpu-7'] })).toBe('unit_occupied');
    expect(await create({ reservedUnitIds: ['gpu-7'], startsAt: hours(1) })).toBe('ok');
    expect(await create({ reservedUnitIds: ['gpu-42'] })).toBe('unknown_unit');
    expect(await create({ allowedOrgIds: ['org_nope'] })).toBe('unknown_org');
    expect(await create({ id: 'r1' })).toBe('already_exists');
    // Timestamps before 1970 never reach PostgreSQL (year 0 is invalid there; years < 100 read back wrong).
    const { CreateReservationInput } = await import('./reservations/schemas');
    for (const startsAt of ['0000-01-01T00:00:00Z', '0049-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '2026-13-45T00:00:00Z', '2026-12-01T00:00:00+02:00']) {
      expect(CreateReservationInput.safeParse({ nodeId: 'n1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt }).success, startsAt).toBe(
        false,
      );
    }
  });

  it('holds the no-overlap rule in PostgreSQL under concurrent creation (two connections)', async () => {
    const second = createDb(scene().url, { max: 2 });
    try {
      const input = { nodeId: 'n1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(1) };
      const outcomes = await Promise.all([
        code(createReservation({ ctx: ctxFor(db(), ORG.owner), input })),
        code(createReservation({ ctx: ctxFor(second.db, ORG.owner), input })),
      ]);
      expect(outcomes.sort()).toEqual(['ok', 'reservation_overlap']);
    } finally {
      await second.client.end();
    }
  });

  it('edits audience, managers, endsAt and contractRef; shrinks but never grows units', async () => {
    const ctx = ctxFor(db(), ORG.owner, hours(1));
    const edited = await updateReservation({
      ctx,
      input: {
        nodeId: 'n1',
        reservationId: 'r1',
        allowedOrgIds: [ORG.audience, ORG.other],
        managingOrgIds: [],
        endsAt: null,
        contractRef: null,
        reason: 'renewed',
      },
    });
    expect(edited).toMatchObject({ allowedOrgIds: [ORG.audience, ORG.other], managingOrgIds: [], reason: 'renewed' });
    expect(edited).not.toHaveProperty('endsAt');
    expect(edited).not.toHaveProperty('contractRef');
    expect(await code(updateReservation({ ctx, input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-6'] } }))).toBe(
      'unit_not_in_reservation',
    );
    expect(await code(updateReservation({ ctx, input: { nodeId: 'n1', reservationId: 'r1', endsAt: hours(0.5) } }))).toBe('invalid_request');
    // gpu-4 runs the audience's reserved VM: it cannot leave.
    expect(await code(updateReservation({ ctx, input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'] } }))).toBe(
      'unit_occupied',
    );
    const shrunk = await updateReservation({ ctx, input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-1', 'gpu-2', 'gpu-4', 'gpu-5'] } });
    expect(shrunk).toMatchObject({ reservedUnitIds: ['gpu-1', 'gpu-2', 'gpu-4', 'gpu-5'], releasedUnitIds: ['gpu-1', 'gpu-2'] });
    // A patch that changes nothing writes nothing.
    const before = await db().select().from(auditEvents);
    await updateReservation({ ctx: ctxFor(db(), ORG.owner, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', managingOrgIds: [] } });
    expect(await db().select().from(auditEvents)).toHaveLength(before.length);
  });
});

describe('release (docs/product.md §5.2)', () => {
  it('releases idle reserved units; idempotent; dry run writes nothing', async () => {
    const ctx = ctxFor(db(), ORG.managing, hours(1));
    const dry = await release({ ctx, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'], dryRun: true } });
    expect(dry.releasedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-5']);
    expect((await getReservation({ ctx, input: { nodeId: 'n1', reservationId: 'r1' } })).releasedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    const done = await release({ ctx, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5', 'gpu-3'], reason: 'idle tonight' } });
    expect(done).toMatchObject({ releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-5'], updatedAt: hours(1).toISOString() });
    const again = await release({ ctx: ctxFor(db(), ORG.managing, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    expect(again.updatedAt).toBe(hours(1).toISOString());
    expect((await db().select().from(auditEvents)).map((e) => e.action)).toEqual(['reservation.release']);
  });

  it('refuses busy units, strays, the audience, and inactive reservations', async () => {
    const rel = (orgId: string, unitIds: string[], now = T0) =>
      code(release({ ctx: ctxFor(db(), orgId, now), input: { nodeId: 'n1', reservationId: 'r1', unitIds } }));
    expect(await rel(ORG.owner, ['gpu-4'])).toBe('unit_occupied');
    expect(await rel(ORG.owner, ['gpu-7'])).toBe('unit_not_in_reservation');
    expect(await rel(ORG.audience, ['gpu-5'])).toBe('forbidden');
    expect(await rel(ORG.owner, ['gpu-5'], hours(30))).toBe('reservation_not_active');
    await changeTopology({ ctx: ctxFor(db(), ORG.platform), input: { nodeId: 'n1', units: gpuUnits(8, 'H200') } });
    expect(await rel(ORG.owner, ['gpu-5'])).toBe('reservation_needs_review');
  });
});

describe('topology change → needs-review → shrink → re-affirm (docs/product.md §5.4)', () => {
  it('walks the whole path', async () => {
    const op = ctxFor(db(), ORG.platform, hours(1));
    // The same unit list again changes nothing.
    const same = await changeTopology({ ctx: op, input: { nodeId: 'n1', units: gpuUnits(8) } });
    expect(same.topologyGen).toBe(1);
    // Removing a unit that runs a VM is refused.
    expect(await code(changeTopology({ ctx: op, input: { nodeId: 'n1', units: gpuUnits(8).filter((u) => u.id !== 'gpu-7') } }))).toBe('unit_occupied');
    // Drop gpu-5 (idle, reserved by r1).
    const changed = await changeTopology({ ctx: op, input: { nodeId: 'n1', units: gpuUnits(8).filter((u) => u.id !== 'gpu-5') } });
    expect(changed.topologyGen).toBe(2);
    expect(changed.units.map((u) => u.state)).toEqual(['withheld', 'withheld', 'withheld', 'withheld', 'withheld', 'free', 'occupied']);
    expect((await getReservation({ ctx: op, input: { nodeId: 'n1', reservationId: 'r1' } })).status).toBe('needs-review');
    // Running VMs keep running; no VM may be placed on withheld units.
    expect((await getVm({ ctx: op, input: { vmId: 'vm-spot-a' } })).status).toBe('running');

    expect(await code(reaffirm({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', reservationId: 'r1' } }))).toBe('forbidden');
    const missing = await reaffirm({ ctx: op, input: { nodeId: 'n1', reservationId: 'r1' } }).catch((e: DomainError) => e);
    expect([(missing as DomainError).code, (missing as DomainError).extras.unitIds]).toEqual(['unit_missing', ['gpu-5']]);

    // The owner shrinks the reservation, then the operator re-affirms it.
    await updateReservation({
      ctx: ctxFor(db(), ORG.owner, hours(1)),
      input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'] },
    });
    const back = await reaffirm({ ctx: op, input: { nodeId: 'n1', reservationId: 'r1', reason: 'checked the new wiring' } });
    expect(back).toMatchObject({ status: 'active', topologyGen: 2, reason: 'checked the new wiring' });
    expect((await states('n1', hours(1))).slice(0, 5)).toEqual(['spot-occupied', 'spot-occupied', 'spot-occupied', 'released', 'reserved-occupied']);

    const actions = (await listAuditEvents({ ctx: op, input: { nodeId: 'n1' } })).items.map((e) => e.action);
    expect(actions).toEqual(['reservation.reaffirm', 'reservation.update', 'node.topology']);
  });

  it('registers nodes (operator only) and keeps every generation', async () => {
    const units = [{ id: 'gpu-0', model: 'B200', memoryGiB: 192 }, { id: 'gpu-1' }];
    expect(await code(registerNode({ ctx: ctxFor(db(), ORG.owner), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units } }))).toBe('forbidden');
    expect(await code(registerNode({ ctx: ctxFor(db(), ORG.platform), input: { id: 'n9', name: 'Nine', ownerOrgId: 'org_nope', units } }))).toBe('unknown_org');
    const node = await registerNode({ ctx: ctxFor(db(), ORG.platform), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units } });
    expect(node).toMatchObject({
      id: 'n9',
      topologyGen: 1,
      counts: { free: 2 },
      units: [
        { id: 'gpu-0', state: 'free', model: 'B200', memoryGiB: 192 },
        { id: 'gpu-1', state: 'free' },
      ],
    });
    expect(await code(registerNode({ ctx: ctxFor(db(), ORG.platform), input: { id: 'n9', name: 'Nine', ownerOrgId: ORG.owner, units } }))).toBe(
      'already_exists',
    );
  });
});

describe('VMs, terminate, audit trail and notifications', () => {
  it('terminate: own org or operator; owners reclaim instead; ending twice changes nothing', async () => {
    expect(await code(terminateVm({ ctx: ctxFor(db(), ORG.owner), input: { vmId: 'vm-spot-a' } }))).toBe('forbidden');
    expect(await code(terminateVm({ ctx: ctxFor(db(), ORG.other), input: { vmId: 'vm-spot-a' } }))).toBe('not_found');
    const ended = await terminateVm({ ctx: ctxFor(db(), ORG.tenantA, hours(1)), input: { vmId: 'vm-spot-a' } });
    expect(ended).toMatchObject({ status: 'terminated', terminationReason: 'terminated', terminatedAt: hours(1).toISOString(), orgId: ORG.tenantA });
    const again = await terminateVm({ ctx: ctxFor(db(), ORG.tenantA, hours(2)), input: { vmId: 'vm-spot-a' } });
    expect(again.terminatedAt).toBe(hours(1).toISOString());
    expect((await states())[0]).toBe('released');
  });

  it('a managing org sees VMs on its reservation’s units only while the reservation held them', async () => {
    // vm-old ran on gpu-6 and ended before r-next (managed by org_managing) begins on it.
    await insertReservation(db(), {
      id: 'r-next',
      nodeId: 'n1',
      unitIds: ['gpu-6'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      startsAt: hours(10),
    });
    await insertVm(db(), {
      id: 'vm-old',
      nodeId: 'n1',
      orgId: ORG.tenantA,
      tier: 'on-demand',
      unitIds: ['gpu-6'],
      startedAt: hours(-9),
      terminatedAt: hours(-8),
    });
    await insertVm(db(), { id: 'vm-now', nodeId: 'n1', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-6'], startedAt: hours(-1) });
    const seen = async (now: Date) => (await listVms({ ctx: ctxFor(db(), ORG.managing, now), input: { nodeId: 'n1' } })).items.map((v) => v.id);
    expect(await seen(T0)).not.toContain('vm-old');
    expect(await seen(T0)).not.toContain('vm-now');
    // Once r-next holds gpu-6, the VM still running there is on its units.
    expect(await seen(hours(11))).toContain('vm-now');
    expect(await seen(hours(11))).not.toContain('vm-old');
  });

  it('lists only the VMs a caller may see, and hides other tenants’ identity', async () => {
    const ids = async (orgId: string) => (await listVms({ ctx: ctxFor(db(), orgId), input: {} })).items.map((v) => v.id);
    expect(await ids(ORG.platform)).toEqual(['vm-od', 'vm-res', 'vm-spot-a', 'vm-spot-b']);
    expect(await ids(ORG.owner)).toEqual(['vm-od', 'vm-res', 'vm-spot-a', 'vm-spot-b']);
    expect(await ids(ORG.managing)).toEqual(['vm-res', 'vm-spot-a', 'vm-spot-b']);
    expect(await ids(ORG.tenantB)).toEqual(['vm-od', 'vm-spot-b']);
    expect(await ids(ORG.other)).toEqual([]);
    const seenByOwner = await getVm({ ctx: ctxFor(db(), ORG.owner), input: { vmId: 'vm-spot-a' } });
    expect(seenByOwner).not.toHaveProperty('orgId');
    expect((await getVm({ ctx: ctxFor(db(), ORG.platform), input: { vmId: 'vm-spot-a' } })).orgId).toBe(ORG.tenantA);
  });

  it('the audit trail is filtered per reader; actorOrgId shows per docs/product.md §2', async () => {
    await placeVm({ ctx: ctxFor(db(), ORG.tenantA, hours(1)), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
    await reclaim({ ctx: ctxFor(db(), ORG.managing, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'], reason: 'back' } });
    const read = async (orgId: string) =>
      (await listAuditEvents({ ctx: ctxFor(db(), orgId, hours(3)), input: {} })).items.map((e) => [e.action, e.actorOrgId ?? null]);
    expect(await read(ORG.platform)).toEqual([
      ['reservation.reclaim', ORG.managing],
      ['vm.place', ORG.tenantA],
    ]);
    expect(await read(ORG.owner)).toEqual([
      ['reservation.reclaim', ORG.managing],
      ['vm.place', null],
    ]);
    expect(await read(ORG.managing)).toEqual([['reservation.reclaim', ORG.managing]]);
    expect(await read(ORG.tenantA)).toEqual([['vm.place', ORG.tenantA]]);
    expect(await read(ORG.audience)).toEqual([]);
    const filtered = await listAuditEvents({ ctx: ctxFor(db(), ORG.platform, hours(3)), input: { action: 'vm.place', since: hours(0.5), until: hours(1.5) } });
    expect(filtered.items).toHaveLength(1);
    const notes = await listNotifications({ ctx: ctxFor(db(), ORG.tenantA, hours(3)), input: {} });
    expect(notes.items).toHaveLength(1);
    expect(notes.items[0]).toMatchObject({ kind: 'vm.reclaimed', details: { nodeId: 'n1', unitIds: ['gpu-3'], reason: 'back' } });
  });

  it('audit pages by cursor, newest first', async () => {
    for (let i = 0; i < 3; i++)
      await db()
        .update(reservations)
        .set({ reason: String(i) })
        .where(eq(reservations.id, 'r1'));
    await release({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await reclaim({ ctx: ctxFor(db(), ORG.owner, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    const first = await listAuditEvents({ ctx: ctxFor(db(), ORG.owner), input: { limit: 1 } });
    expect(first.items.map((e) => e.action)).toEqual(['reservation.reclaim']);
    const second = await listAuditEvents({ ctx: ctxFor(db(), ORG.owner), input: { limit: 1, cursor: first.nextCursor } });
    expect(second.items.map((e) => e.action)).toEqual(['reservation.release']);
    expect(second.nextCursor).toBeUndefined();
    // The cursor names the last event by its public id, never its seq (docs/product.md §9.3:
    // a seq counts every org's events).
    expect(JSON.parse(Buffer.from(first.nextCursor!, 'base64url').toString('utf8'))).toEqual({ k: first.items[0]!.id });
  });

  it('refuses cursors it did not hand out, for audit and notifications alike', async () => {
    const foreign =
      (await listAuditEvents({ ctx: ctxFor(db(), ORG.owner), input: {} })).nextCursor ?? Buffer.from(JSON.stringify({ k: 'n1' })).toString('base64url');
    expect(await code(listAuditEvents({ ctx: ctxFor(db(), ORG.owner), input: { cursor: foreign } }))).toBe('invalid_request');
    expect(await code(listNotifications({ ctx: ctxFor(db(), ORG.owner), input: { cursor: foreign } }))).toBe('invalid_request');
    expect(await code(listNotifications({ ctx: ctxFor(db(), ORG.owner), input: { cursor: 'x' } }))).toBe('invalid_request');
  });
});
