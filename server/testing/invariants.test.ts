import type { Db, DbOrTx, Tx } from '@/db/client';
import { insertReservation, insertVm } from '@/db/factories';
import { auditEvents } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFleet } from '../demo';
import { newId } from '../ids';
import { changeTopology } from '../nodes/topology';
import { cancelReservation } from '../reservations/cancel';
import { createReservation } from '../reservations/create';
import { reaffirm } from '../reservations/reaffirm';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { placeVm } from '../vms/place';
import { terminateVm } from '../vms/terminate';
import { checkInvariants, invariantNames, runChecks, type InvariantName, type Violation } from './invariants';
import { buildScene, ORG, T0, ctxFor, hours } from './scene';

// Every invariant of the checker (server/testing/invariants.ts), planted one at a time with
// direct SQL — dropping the constraint (or disabling the append-only trigger of audit_events,
// migration 0008) that would refuse it where one exists — over a scene
// with a real history of verbs behind it, and caught; and a clean history and the demo seed
// pass. Each plant is expected to break exactly the invariants named, so a check that fires
// on what it should not is caught as well.

const NOW = hours(1);

/**
 * A history of verbs over the scene (docs/product.md §5), in the order the checks care about:
 * placements, a reservation created through the API, a release, a reclaim that evicts, a
 * termination, a topology change that makes both reservations needs-review, re-affirms.
 * `afterTopology` runs while they are needs-review.
 * @returns the ids the plants refer to.
 */
async function history(db: Db, opts: { afterTopology?: () => Promise<void> } = {}) {
  const spot = await placeVm({ ctx: ctxFor(db, ORG.tenantA, hours(0.1)), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
  await createReservation({
    ctx: ctxFor(db, ORG.owner, hours(0.15)),
    input: { nodeId: 'n1', id: 'r2', reservedUnitIds: ['gpu-7'], allowedOrgIds: [ORG.audience], startsAt: hours(0.55) },
  });
  const onDemand = await placeVm({ ctx: ctxFor(db, ORG.tenantA, hours(0.2)), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'on-demand' } });
  await release({ ctx: ctxFor(db, ORG.managing, hours(0.3)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
  const reclaimed = await reclaim({
    ctx: ctxFor(db, ORG.managing, hours(0.4)),
    input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'], expectedTerminate: ['vm-spot-a'] },
  });
  expect(reclaimed.terminated).toEqual(['vm-spot-a']);
  await terminateVm({ ctx: ctxFor(db, ORG.tenantB, hours(0.5)), input: { vmId: 'vm-od' } });
  const units = Array.from({ length: 8 }, (_, i) => ({
    id: `gpu-${i}`,
    model: 'H100-SXM5',
    memoryGiB: i === 7 ? 96 : 80,
    nvlinkDomain: `nvl-${Math.floor(i / 4)}`,
  }));
  await changeTopology({ ctx: ctxFor(db, ORG.platform, hours(0.6)), input: { nodeId: 'n1', units } });
  await opts.afterTopology?.();
  for (const reservationId of ['r1', 'r2']) await reaffirm({ ctx: ctxFor(db, ORG.platform, hours(0.7)), input: { nodeId: 'n1', reservationId } });
  return { spotVmId: spot.id, onDemandVmId: onDemand.id };
}

// Most plants share one scene-and-history and are rolled back (DDL included: PostgreSQL's is
// transactional); the few that need their own history get a fresh database.
let shared: TestDatabase;
let ids: Awaited<ReturnType<typeof history>>;
beforeAll(async () => {
  shared = await createTestDatabase();
  await buildScene(shared.db);
  ids = await history(shared.db);
});
afterAll(async () => shared?.close());

const options = { now: NOW, auditSince: T0 };

/** Plants a fault in a transaction, checks inside it, and rolls it back. */
async function planted(fault: (tx: Tx) => Promise<unknown>): Promise<Violation[]> {
  let found: Violation[] = [];
  try {
    await shared.db.transaction(async (tx) => {
      await fault(tx);
      found = await runChecks(tx, options);
      tx.rollback();
    });
  } catch (e) {
    if (!(e instanceof TransactionRollbackError)) throw e;
  }
  return found;
}

/** A fresh scene, for a test that needs a history of its own. */
async function withFreshScene<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const tdb = await createTestDatabase();
  try {
    await buildScene(tdb.db);
    return await fn(tdb.db);
  } finally {
    await tdb.close();
  }
}

const broken = (violations: Violation[]) => [...new Set(violations.map((v) => v.invariant))].sort();
const kinds = (violations: Violation[]) => [...new Set(violations.map((v) => v.kind))].sort();

/** Runs SQL that plants a fault (several statements allowed). */
const sqlFault = (statements: string) => (tx: DbOrTx) => tx.execute(sql.raw(statements));

/**
 * Audit events are append-only (migration 0008): a plant that changes or removes one first
 * disables the trigger that refuses it — inside the plant's transaction, so it is rolled back
 * with the plant, as the constraints dropped above are.
 */
const auditFault = (statements: string) => sqlFault(`alter table audit_events disable trigger audit_events_no_update_or_delete; ${statements}`);

/** An audit event written by hand, as a verb would have (server/audit/write.ts). */
async function plantEvent(
  db: DbOrTx,
  e: { action: (typeof auditEvents.$inferInsert)['action']; at: Date; reservationId?: string; details: Record<string, unknown> },
) {
  await db.insert(auditEvents).values({
    id: newId('evt'),
    at: e.at,
    action: e.action,
    actorOrgId: ORG.platform,
    actorApiKeyId: 'key_planted',
    via: 'api',
    nodeId: 'n1',
    reservationId: e.reservationId ?? null,
    unitIds: [],
    details: e.details,
  });
}

/** A spot VM with its `vm.place` event, both written by hand. */
async function plantSpotVm(db: DbOrTx, id: string, unitIds: string[], at: Date) {
  await insertVm(db, { id, nodeId: 'n1', orgId: ORG.tenantA, tier: 'spot', unitIds, startedAt: at });
  await plantEvent(db, { action: 'vm.place', at, details: { vmId: id, tier: 'spot' } });
}

describe('a clean fleet passes', () => {
  it('the scene after a history of verbs breaks nothing', async () => {
    expect(await planted(async () => {})).toEqual([]);
    expect(await checkInvariants(shared.db, options)).toEqual([]);
  });

  it('the demo seed breaks nothing', async () => {
    const tdb = await createTestDatabase();
    try {
      const now = new Date();
      await seedDemoFleet(tdb.db, now);
      expect(await checkInvariants(tdb.db, { now, auditSince: now })).toEqual([]);
    } finally {
      await tdb.close();
    }
  });

  it('without auditSince, rows the factories wrote are held to the audit rules too', async () => {
    const found = await checkInvariants(shared.db, { now: NOW });
    expect(broken(found)).toEqual(['audit-complete']);
    expect(found.map((v) => v.details.vmId).sort()).toEqual(['vm-od', 'vm-res', 'vm-spot-a', 'vm-spot-b']);
  });
});

describe('1. a unit runs at most one VM', () => {
  it('catches two running VMs on one unit (the partial unique index dropped)', async () => {
    const found = await planted(async (tx) => {
      await sqlFault('drop index vm_units_one_running_vm_per_unit')(tx);
      await plantSpotVm(tx, 'vm-dup', ['gpu-2'], hours(0.8));
    });
    expect(broken(found)).toEqual(['single-running-vm']);
    expect(found[0]!.details).toEqual({ nodeId: 'n1', unitId: 'gpu-2', vmIds: ['vm-dup', 'vm-spot-b'] });
  });
});

describe('2. VM rows and their unit rows agree', () => {
  it.each([
    // The record of intervals follows the flag (the VM's rows go with it), so only this invariant breaks.
    ['unit-flag-disagrees', `update vm_units set running = false where vm_id = 'vm-res'; delete from unit_intervals where vm_id = 'vm-res'`],
    ['vm-without-units', `delete from vm_units where vm_id = 'vm-res'`],
    ['termination-fields', `alter table vms drop constraint vms_termination_consistent; update vms set termination_reason = 'terminated' where id = 'vm-res'`],
    ['running-on-missing-unit', `delete from node_units where node_id = 'n1' and unit_id = 'gpu-4'`],
    ['tier-reservation', `alter table vms drop constraint vms_reserved_tier_has_reservation; update vms set reservation_id = 'r1' where id = 'vm-od'`],
  ])('catches %s', async (kind, statements) => {
    const found = await planted(sqlFault(statements));
    expect(broken(found)).toEqual(['vm-units-agree']);
    expect(kinds(found)).toEqual([kind]);
  });
});

describe('3. no spot VM on a reserved unit that is not released', () => {
  it('catches a spot VM on a unit its current reservation holds unreleased', async () => {
    const found = await planted(
      sqlFault(`update reservation_units set released = false where reservation_id = 'r1' and unit_id = 'gpu-2';
        update unit_intervals set open = false, ends_at = '${hours(0.8).toISOString()}' where reservation_id = 'r1' and unit_id = 'gpu-2' and kind = 'released'`),
    );
    expect(broken(found)).toEqual(['no-spot-on-unreleased-unit']);
    expect(found[0]!.details).toMatchObject({ vmId: 'vm-spot-b', unitId: 'gpu-2', reservationId: 'r1' });
  });

  it('catches an on-demand VM placed during a hold', async () => {
    const found = await planted(async (tx) => {
      await sqlFault('alter table reservation_units drop constraint reservation_units_no_overlap')(tx);
      await insertReservation(tx, { id: 'r3', nodeId: 'n1', unitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(0.1), endsAt: hours(3) });
    });
    expect(broken(found)).toEqual(['no-spot-on-unreleased-unit']);
    expect(found.map((v) => [v.kind, v.details.vmId])).toEqual([['on-demand-on-unreleased-unit', ids.onDemandVmId]]);
  });

  it('leaves alone a spot VM that was running before the reservation’s period began (docs/product.md §5.3)', async () => {
    await withFreshScene(async (db) => {
      await history(db);
      // gpu-7 is r2's; cancelled, it is free for a spot VM, and a new reservation over the
      // running VM is legal when its period starts later (docs/product.md §5 create).
      await cancelReservation({ ctx: ctxFor(db, ORG.owner, hours(0.74)), input: { nodeId: 'n1', reservationId: 'r2' } });
      await placeVm({ ctx: ctxFor(db, ORG.tenantB, hours(0.75)), input: { nodeId: 'n1', unitIds: ['gpu-7'], tier: 'spot' } });
      const r4 = await createReservation({
        ctx: ctxFor(db, ORG.owner, hours(0.8)),
        input: { nodeId: 'n1', id: 'r4', reservedUnitIds: ['gpu-7'], allowedOrgIds: [ORG.audience], startsAt: hours(0.9) },
      });
      expect(r4.status).toBe('pending');
      // At NOW r4 holds gpu-7, unreleased, with the spot VM from before its period on it.
      expect(await checkInvariants(db, options)).toEqual([]);
    });
  });
});

describe('4. no reserved VM on a released unit', () => {
  it('catches a reserved VM on a unit its reservation has released', async () => {
    const found = await planted(
      sqlFault(`update reservation_units set released = true where reservation_id = 'r1' and unit_id = 'gpu-4';
        insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at) select 'n1', 'gpu-4', 'released', 'r1', '${hours(0.8).toISOString()}', ends_at from reservations where node_id = 'n1' and id = 'r1'`),
    );
    expect(broken(found)).toEqual(['no-reserved-vm-on-released-unit']);
    expect(found[0]!.details).toMatchObject({ vmId: 'vm-res', tier: 'reserved', unitId: 'gpu-4' });
  });
});

describe('5. no placement accepted on a withheld unit', () => {
  it('catches a VM placed while the unit’s reservation was needs-review, though it was re-affirmed since', async () => {
    const found = await withFreshScene(async (db) => {
      await history(db, { afterTopology: () => plantSpotVm(db, 'vm-withheld', ['gpu-5'], hours(0.65)) });
      return checkInvariants(db, options);
    });
    expect(broken(found)).toEqual(['no-placement-on-withheld-unit']);
    expect(found[0]!.details).toMatchObject({ vmId: 'vm-withheld', unitId: 'gpu-5', reservationId: 'r1', nodeGen: 2, reservationGen: 1 });
  });

  it('leaves alone the same placement after the re-affirm', async () => {
    expect(await planted((tx) => plantSpotVm(tx, 'vm-after', ['gpu-5'], hours(0.8)))).toEqual([]);
  });

  it('orders by commit (audit seq), not by recorded time, when both are audited', async () => {
    // Recorded before the topology change, committed after it: the unit was withheld.
    const found = await withFreshScene(async (db) => {
      await history(db, { afterTopology: () => plantSpotVm(db, 'vm-early-clock', ['gpu-5'], hours(0.55)) });
      return checkInvariants(db, options);
    });
    expect(broken(found)).toEqual(['no-placement-on-withheld-unit', 'times-follow-commit-order']);
  });
});

describe('6. non-cancelled reservations of a unit never overlap', () => {
  it('catches two reservations holding a unit in overlapping periods (the exclusion constraint dropped)', async () => {
    const found = await planted(async (tx) => {
      await sqlFault('alter table reservation_units drop constraint reservation_units_no_overlap')(tx);
      await insertReservation(tx, { id: 'r3', nodeId: 'n1', unitIds: ['gpu-5'], allowedOrgIds: [ORG.tenantA], startsAt: hours(20), endsAt: hours(30) });
    });
    expect(broken(found)).toEqual(['no-overlapping-reservations']);
    expect(found[0]!.details).toMatchObject({ unitId: 'gpu-5', reservationIds: ['r1', 'r3'] });
  });

  it('catches a unit row whose period disagrees with its reservation (what the constraint sees)', async () => {
    const found = await planted(
      sqlFault(`update reservation_units set ends_at = '${hours(48).toISOString()}' where reservation_id = 'r1' and unit_id = 'gpu-5'`),
    );
    expect(broken(found)).toEqual(['no-overlapping-reservations']);
    expect(kinds(found)).toEqual(['unit-copy-disagrees']);
  });
});

describe('7. every change has exactly one audit event', () => {
  it.each<[string, string, () => string, InvariantName[]]>([
    ['placement', 'a missing vm.place', () => `delete from audit_events where action = 'vm.place' and details->>'vmId' = '${ids.spotVmId}'`, []],
    ['termination', 'a missing vm.terminate', () => `delete from audit_events where action = 'vm.terminate'`, []],
    // The copy commits last with the first one's time, so it is also out of commit order.
    [
      'termination',
      'a reclaim recorded twice',
      () =>
        `insert into audit_events (id, at, action, actor_org_id, actor_user_id, actor_api_key_id, actor_job, via, node_id, reservation_id, unit_ids, details) select id || '-copy', at, action, actor_org_id, actor_user_id, actor_api_key_id, actor_job, via, node_id, reservation_id, unit_ids, details from audit_events where action = 'reservation.reclaim'`,
      ['times-follow-commit-order'],
    ],
    ['topology', 'a missing node.topology', () => `delete from audit_events where action = 'node.topology'`, []],
    ['reaffirm', 'a missing reservation.reaffirm', () => `delete from audit_events where action = 'reservation.reaffirm' and reservation_id = 'r2'`, []],
  ])('catches %s: %s', async (kind, _what, statements, also) => {
    const found = await planted(auditFault(statements()));
    expect(broken(found)).toEqual(['audit-complete', ...also].sort());
    expect(kinds(found.filter((v) => v.invariant === 'audit-complete'))).toEqual([kind]);
  });

  it('catches a vm.terminate event for a VM that still runs', async () => {
    const found = await planted((tx) => plantEvent(tx, { action: 'vm.terminate', at: hours(0.8), details: { vmId: 'vm-res', tier: 'reserved' } }));
    expect(broken(found)).toEqual(['audit-complete']);
    expect(found[0]!.details).toMatchObject({ vmId: 'vm-res' });
  });

  it('catches a re-affirm event that changed nothing', async () => {
    const found = await planted((tx) =>
      plantEvent(tx, { action: 'reservation.reaffirm', at: hours(0.8), reservationId: 'r1', details: { fromGen: 2, toGen: 2 } }),
    );
    expect(broken(found)).toEqual(['audit-complete']);
    expect(found[0]!.message).toContain('must move it up');
  });
});

describe('8. every reclaimed VM gets exactly one notification, to its org', () => {
  it.each([
    ['a missing notification', `delete from notifications`],
    ['a notification to the wrong org', `update notifications set org_id = '${ORG.tenantB}'`],
  ])('catches %s', async (_what, statements) => {
    const found = await planted(sqlFault(statements));
    expect(broken(found)).toEqual(['reclaims-notified']);
    expect(found[0]!.details).toMatchObject({ vmId: 'vm-spot-a' });
  });
});

describe('9. recorded times follow commit order', () => {
  it('catches an event recorded before one that committed ahead of it', async () => {
    const found = await planted(auditFault(`update audit_events set at = '${hours(0.05).toISOString()}' where action = 'reservation.release'`));
    expect(broken(found)).toEqual(['times-follow-commit-order']);
    expect(found[0]!.details).toMatchObject({ action: 'reservation.release', previous: { action: 'vm.place' } });
  });
});

describe('10. the record of unit intervals agrees with the rows', () => {
  it('catches a release the record missed, and a reclaim it missed', async () => {
    const found = await planted(
      sqlFault(`update reservation_units set released = true where node_id = 'n1' and reservation_id = 'r1' and unit_id = 'gpu-4';
        update reservation_units set released = false where node_id = 'n1' and reservation_id = 'r1' and unit_id = 'gpu-3'`),
    );
    expect(broken(found)).toContain('intervals-agree');
    expect(found.filter((v) => v.invariant === 'intervals-agree').map((v) => `${v.kind} ${v.details.unitId}`)).toEqual([
      'released-flag-disagrees gpu-3',
      'released-flag-disagrees gpu-4',
    ]);
  });

  it('catches a shrink, a cancel and an end move the record missed', async () => {
    const found = await planted(
      sqlFault(`delete from reservation_units where node_id = 'n1' and reservation_id = 'r1' and unit_id = 'gpu-5';
        update reservations set ends_at = ends_at + interval '1 hour' where node_id = 'n1' and id = 'r1';
        update reservations set cancelled_at = '${hours(0.9).toISOString()}' where node_id = 'n1' and id = 'r2'`),
    );
    expect(kinds(found.filter((v) => v.invariant === 'intervals-agree'))).toEqual(['open-end-disagrees', 'open-interval-without-unit']);
  });

  it('catches a VM that ended or started unrecorded', async () => {
    const found = await planted(
      sqlFault(`update unit_intervals set open = false, ends_at = starts_at + interval '1 minute' where vm_id = '${ids.spotVmId}';
        update unit_intervals set starts_at = starts_at - interval '1 minute' where vm_id = 'vm-spot-b'`),
    );
    expect(
      found
        .filter((v) => v.invariant === 'intervals-agree')
        .map((v) => `${v.kind} ${v.details.subject as string}`)
        .sort(),
    ).toEqual([`vm-interval-disagrees ${ids.spotVmId}`, 'vm-interval-times vm-spot-b', `vm-interval-times ${ids.spotVmId}`]);
  });

  it('catches an open row behind a later one of its kind and unit, which the verbs would never find to close', async () => {
    const found = await planted(
      sqlFault(`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at)
        select node_id, unit_id, kind, reservation_id, starts_at - interval '1 minute', ends_at from unit_intervals
        where node_id = 'n1' and reservation_id = 'r1' and kind = 'released' and unit_id = 'gpu-3' and open`),
    );
    expect(found.filter((v) => v.invariant === 'intervals-agree').map((v) => `${v.kind} ${v.details.unitId}`)).toEqual(['open-interval-not-latest gpu-3']);
  });

  it('catches a needs-review window a re-affirm left open', async () => {
    const found = await planted(sqlFault(`update unit_intervals set open = true, ended_by = null where kind = 'needs-review' and reservation_id = 'r1'`));
    expect(kinds(found.filter((v) => v.invariant === 'intervals-agree'))).toEqual(['needs-review-without-cause', 'open-end-disagrees']);
  });
});

it('plants a fault for every invariant', () => {
  const planted = new Set<InvariantName>([
    'single-running-vm',
    'vm-units-agree',
    'no-spot-on-unreleased-unit',
    'no-reserved-vm-on-released-unit',
    'no-placement-on-withheld-unit',
    'no-overlapping-reservations',
    'audit-complete',
    'reclaims-notified',
    'times-follow-commit-order',
    'intervals-agree',
  ]);
  expect([...planted].sort()).toEqual([...invariantNames].sort());
});
