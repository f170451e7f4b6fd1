import { insertReservation, insertVm } from '@/db/factories';
import { auditEvents, nodes, notifications, reservationUnits, reservations, vmUnits, vms, type VmReclaimedDetails } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, T0, ctxFor, hours } from '../testing/scene';
import { reclaim } from './reclaim';
import type { ReclaimInput } from './schemas';

const scene = useFreshScene();
const db = () => scene().db;

const input = (over: Partial<ReclaimInput> = {}): ReclaimInput => ({ nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2', 'gpu-4'], ...over });

/** Everything a reclaim may write, to prove that a call wrote nothing. */
async function snapshot() {
  return {
    vms: await db().select().from(vms).orderBy(vms.id),
    vmUnits: await db().select().from(vmUnits).orderBy(vmUnits.vmId, vmUnits.unitId),
    units: await db().select().from(reservationUnits).orderBy(reservationUnits.reservationId, reservationUnits.unitId),
    reservations: await db().select().from(reservations).orderBy(reservations.id),
    audit: await db().select().from(auditEvents),
    notifications: await db().select().from(notifications),
  };
}

describe('reclaim dry run (docs/product.md §5.1 step 6)', () => {
  it('lists the spot VMs to terminate and the others to skip, and writes nothing', async () => {
    const before = await snapshot();
    const res = await reclaim({ ctx: ctxFor(db(), ORG.managing, T0), input: input({ dryRun: true }) });
    expect(res).toMatchObject({ id: 'r1', status: 'active', wouldTerminate: ['vm-spot-a', 'vm-spot-b'], wouldSkip: ['vm-res'] });
    expect(res.releasedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    expect(res).not.toHaveProperty('terminated');
    expect(res).not.toHaveProperty('skipped');
    expect(await snapshot()).toEqual(before);
  });
});

describe('reclaim (docs/product.md §5.1 step 7)', () => {
  it('terminates spot VMs whole, takes the named units off the market, audits and notifies', async () => {
    const now = hours(1);
    const res = await reclaim({ ctx: ctxFor(db(), ORG.managing, now), input: input({ reason: 'need them back' }) });
    expect(res).toMatchObject({ terminated: ['vm-spot-a', 'vm-spot-b'], skipped: ['vm-res'], reason: 'need them back', updatedAt: now.toISOString() });
    // gpu-1 was not named: it stays released, but vm-spot-a (gpu-0 + gpu-1) ended whole.
    expect(res.releasedUnitIds).toEqual(['gpu-1', 'gpu-3']);
    expect(res).not.toHaveProperty('wouldTerminate');

    const ended = await db().select().from(vms).where(eq(vms.status, 'terminated')).orderBy(vms.id);
    expect(ended.map((v) => [v.id, v.terminationReason, v.terminatedAt?.toISOString()])).toEqual([
      ['vm-spot-a', 'reclaimed', now.toISOString()],
      ['vm-spot-b', 'reclaimed', now.toISOString()],
    ]);
    const stillRunning = await db().select().from(vmUnits).where(eq(vmUnits.running, true)).orderBy(vmUnits.unitId);
    expect(stillRunning.map((u) => u.unitId)).toEqual(['gpu-4', 'gpu-7']);

    const [event, ...more] = await db().select().from(auditEvents);
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({
      action: 'reservation.reclaim',
      actorOrgId: ORG.managing,
      actorApiKeyId: `key_${ORG.managing}`,
      via: 'api',
      nodeId: 'n1',
      reservationId: 'r1',
      unitIds: ['gpu-0', 'gpu-2', 'gpu-4'],
      reason: 'need them back',
      details: { terminated: ['vm-spot-a', 'vm-spot-b'], skipped: ['vm-res'] },
    });
    const notes = await db().select().from(notifications).orderBy(notifications.orgId);
    expect(notes.map((n) => [n.orgId, n.kind, (n.details as VmReclaimedDetails).vmId, (n.details as VmReclaimedDetails).unitIds])).toEqual([
      [ORG.tenantA, 'vm.reclaimed', 'vm-spot-a', ['gpu-0', 'gpu-1']],
      [ORG.tenantB, 'vm.reclaimed', 'vm-spot-b', ['gpu-2']],
    ]);
    // The evicted tenant learns what, when and why — not who holds the reservation.
    expect(notes[0]!.message).toContain('vm-spot-a');
    expect(JSON.stringify(notes)).not.toContain(ORG.managing);
    expect(JSON.stringify(notes)).not.toContain('r1');
  });

  it('writes nothing when nothing changes, and answers with empty terminated', async () => {
    const before = await snapshot();
    const res = await reclaim({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: input({ unitIds: ['gpu-4', 'gpu-5'] }) });
    expect(res).toMatchObject({ terminated: [], skipped: ['vm-res'] });
    expect(res.updatedAt).toBe(hours(-24).toISOString());
    expect(await snapshot()).toEqual(before);
  });

  it('is idempotent: the same reclaim twice changes things once', async () => {
    await reclaim({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: input() });
    const after = await snapshot();
    const again = await reclaim({ ctx: ctxFor(db(), ORG.owner, hours(2)), input: input() });
    expect(again.terminated).toEqual([]);
    expect(again.updatedAt).toBe(hours(1).toISOString());
    expect(await snapshot()).toEqual(after);
  });

  it('takes an idle released unit off the market without terminating anything', async () => {
    const res = await reclaim({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: input({ unitIds: ['gpu-3'] }) });
    expect(res).toMatchObject({ terminated: [], skipped: [], releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2'] });
    expect(await db().select().from(auditEvents)).toHaveLength(1);
    expect(await db().select().from(notifications)).toHaveLength(0);
  });

  it('terminates a spot VM on a named unit even if the unit was never released', async () => {
    await insertReservation(db(), { id: 'r2', nodeId: 'n1', unitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(-1) });
    await db().update(vmUnits).set({ running: false }).where(eq(vmUnits.vmId, 'vm-od'));
    await insertVm(db(), { id: 'vm-spot-c', nodeId: 'n1', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-6'], startedAt: hours(-2) });
    const res = await reclaim({ ctx: ctxFor(db(), ORG.owner, T0), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    expect(res).toMatchObject({ terminated: ['vm-spot-c'], skipped: [] });
  });
});

describe('expectedTerminate (docs/product.md §5.1 step 5)', () => {
  it('refuses with the current set when it differs, and changes nothing', async () => {
    const before = await snapshot();
    const err = await failure(reclaim({ ctx: ctxFor(db(), ORG.managing), input: input({ expectedTerminate: ['vm-spot-a'] }) }));
    expect(err.code).toBe('eviction_set_changed');
    expect(err.toProblem()).toMatchObject({ status: 409, terminate: ['vm-spot-a', 'vm-spot-b'] });
    expect(await snapshot()).toEqual(before);
  });

  it('compares as a set: order and duplicates do not matter', async () => {
    const res = await reclaim({ ctx: ctxFor(db(), ORG.managing), input: input({ expectedTerminate: ['vm-spot-b', 'vm-spot-a', 'vm-spot-b'] }) });
    expect(res).toMatchObject({ terminated: ['vm-spot-a', 'vm-spot-b'] });
  });

  it('applies to dry runs too, and an empty expectation matches an empty set', async () => {
    const err = await failure(reclaim({ ctx: ctxFor(db(), ORG.managing), input: input({ dryRun: true, expectedTerminate: [] }) }));
    expect(err.code).toBe('eviction_set_changed');
    const ok = await reclaim({ ctx: ctxFor(db(), ORG.managing), input: input({ unitIds: ['gpu-5'], expectedTerminate: [] }) });
    expect(ok).toMatchObject({ terminated: [] });
  });
});

describe('reservation status (docs/product.md §5.1 step 2)', () => {
  it('refuses cancelled and expired reservations with their status', async () => {
    await db()
      .update(reservations)
      .set({ cancelledAt: hours(0.5) })
      .where(eq(reservations.id, 'r1'));
    const cancelled = await failure(reclaim({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: input() }));
    expect([cancelled.code, cancelled.extras.reservationStatus]).toEqual(['reservation_not_reclaimable', 'cancelled']);

    await db().update(reservations).set({ cancelledAt: null }).where(eq(reservations.id, 'r1'));
    // Half-open period: at endsAt the reservation has expired.
    const expired = await failure(reclaim({ ctx: ctxFor(db(), ORG.owner, hours(24)), input: input({ dryRun: true }) }));
    expect([expired.code, expired.extras.reservationStatus, expired.httpStatus]).toEqual(['reservation_not_reclaimable', 'expired', 409]);
  });

  it('accepts pending and needs-review reservations', async () => {
    await insertReservation(db(), {
      id: 'r-pending',
      nodeId: 'n1',
      unitIds: ['gpu-6'],
      releasedUnitIds: ['gpu-6'],
      allowedOrgIds: [ORG.audience],
      startsAt: hours(48),
    });
    const pending = await reclaim({ ctx: ctxFor(db(), ORG.owner), input: { nodeId: 'n1', reservationId: 'r-pending', unitIds: ['gpu-6'] } });
    expect(pending).toMatchObject({ status: 'pending', releasedUnitIds: [], terminated: [] });
    // A pending reservation holds nothing yet: the spot VMs on its future units are another
    // holder's, so it evicts no one (r1 is active on gpu-0 … gpu-5; r-later starts tomorrow).
    await insertReservation(db(), {
      id: 'r-later',
      nodeId: 'n1',
      unitIds: ['gpu-7'],
      releasedUnitIds: ['gpu-7'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.other],
      startsAt: hours(24),
    });
    const later = await reclaim({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', reservationId: 'r-later', unitIds: ['gpu-7'] } });
    expect(later).toMatchObject({ status: 'pending', releasedUnitIds: [], terminated: [], skipped: [] });
    expect((await db().select().from(vms).where(eq(vms.id, 'vm-od')))[0]?.status).toBe('running');

    await db().update(nodes).set({ topologyGen: 2 }).where(eq(nodes.id, 'n1'));
    const review = await reclaim({ ctx: ctxFor(db(), ORG.platform), input: input({ unitIds: ['gpu-2'] }) });
    expect(review).toMatchObject({ status: 'needs-review', terminated: ['vm-spot-b'] });
  });
});

describe('unitIds must be reserved (docs/product.md §5.1 step 3)', () => {
  it('is 422 listing the strays in node order, then by code point', async () => {
    const err = await failure(reclaim({ ctx: ctxFor(db(), ORG.owner), input: input({ unitIds: ['zz-9', 'gpu-7', 'gpu-0', 'gpu-6'] }) }));
    expect(err.code).toBe('unit_not_in_reservation');
    expect(err.extras.unitIds).toEqual(['gpu-6', 'gpu-7', 'zz-9']);
  });
});

describe('who may reclaim (docs/product.md §2)', () => {
  const cases: [string, string, 'ok' | 'forbidden' | 'not_found'][] = [
    ['operator', ORG.platform, 'ok'],
    ['node owner', ORG.owner, 'ok'],
    ['managing org', ORG.managing, 'ok'],
    ['audience', ORG.audience, 'forbidden'],
    ['spot tenant with a VM on the units', ORG.tenantA, 'not_found'],
    ['other org', ORG.other, 'not_found'],
  ];
  for (const [who, orgId, expected] of cases) {
    for (const dryRun of [true, false]) {
      it(`${who}${dryRun ? ' (dry run)' : ''}: ${expected}`, async () => {
        const p = reclaim({ ctx: ctxFor(db(), orgId), input: input({ dryRun }) });
        if (expected === 'ok') await expect(p).resolves.toMatchObject({ id: 'r1' });
        else expect((await failure(p)).code).toBe(expected);
      });
    }
  }

  it('checks 404, then 403, then 409, then 422', async () => {
    await db().update(reservations).set({ cancelledAt: T0 }).where(eq(reservations.id, 'r1'));
    const strays = input({ unitIds: ['nope'] });
    expect((await failure(reclaim({ ctx: ctxFor(db(), ORG.other), input: strays }))).code).toBe('not_found');
    expect((await failure(reclaim({ ctx: ctxFor(db(), ORG.audience), input: strays }))).code).toBe('forbidden');
    expect((await failure(reclaim({ ctx: ctxFor(db(), ORG.owner), input: strays }))).code).toBe('reservation_not_reclaimable');
    await db().update(reservations).set({ cancelledAt: null }).where(eq(reservations.id, 'r1'));
    expect((await failure(reclaim({ ctx: ctxFor(db(), ORG.owner), input: strays }))).code).toBe('unit_not_in_reservation');
  });

  it('is 404 for an unknown node, an unknown reservation, and a reservation under another node', async () => {
    const { insertNode } = await import('@/db/factories');
    await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner });
    for (const where of [{ nodeId: 'nope' }, { reservationId: 'nope' }, { nodeId: 'n2' }]) {
      const err = await failure(reclaim({ ctx: ctxFor(db(), ORG.platform), input: input(where) }));
      expect(err.code).toBe('not_found');
    }
  });

  it('records who acted and through which transport', async () => {
    const ctx = { ...ctxFor(db(), ORG.owner), actor: { kind: 'user' as const, userId: 'u1' }, via: 'console' as const };
    await reclaim({ ctx, input: input() });
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.reservationId, 'r1')));
    expect(event).toMatchObject({ actorOrgId: ORG.owner, actorUserId: 'u1', actorApiKeyId: null, via: 'console' });
  });
});
