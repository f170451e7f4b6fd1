import { auditEvents, notifications, reclaimScheduleUnits, reclaimSchedules, reservationUnits, vms, type VmReclaimScheduledDetails } from '@/db/schema';
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { readClockOffsetMs, setClockOffsetMs } from '../clock';
import type { Ctx } from '../context';
import { getNode } from '../nodes/get';
import { cancelReservation } from '../reservations/cancel';
import { reclaim } from '../reservations/reclaim';
import { updateReservation } from '../reservations/update';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor, hours } from '../testing/scene';
import { getVm } from '../vms/get';
import { placeVm } from '../vms/place';
import { cancelReclaimSchedule, rescheduleReclaim } from './change';
import { createReclaimSchedule } from './create';
import { listReclaimSchedules } from './read';
import { sweepDueReclaims } from './sweep';

// The scene is built around the real clock: the sweeper reads PostgreSQL's, as it does in production.
const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const at = (h: number) => hours(h, BASE);
const as = (orgId: string, now: Date = BASE): Ctx => ctxFor(db(), orgId, now);
const key = { nodeId: 'n1', reservationId: 'r1' };

const schedule = (unitIds: string[], h = 2, orgId: string = ORG.managing) =>
  createReclaimSchedule({ ctx: as(orgId), input: { ...key, unitIds, at: at(h), reason: 'maintenance' } });

const events = (action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action as never))
    .orderBy(asc(auditEvents.seq));
const notices = async () =>
  (await db().select().from(notifications).where(eq(notifications.kind, 'vm.reclaim_scheduled')).orderBy(asc(notifications.seq))).map((n) => ({
    orgId: n.orgId,
    ...(n.details as VmReclaimScheduledDetails),
  }));

afterEach(() => {
  delete process.env.TEST_CLOCK;
});

describe('scheduling a reclaim (docs/product.md §5.6)', () => {
  it('creates a pending schedule, audits it and tells every spot tenant on the units, notBefore = at', async () => {
    const s = await schedule(['gpu-2', 'gpu-0', 'gpu-3']);
    expect(s).toMatchObject({
      nodeId: 'n1',
      reservationId: 'r1',
      unitIds: ['gpu-0', 'gpu-2', 'gpu-3'],
      at: at(2).toISOString(),
      status: 'pending',
      reason: 'maintenance',
      createdBy: { orgId: ORG.managing, apiKeyId: `key_${ORG.managing}` },
    });
    const [created] = await events('reclaim_schedule.create');
    expect(created).toMatchObject({ actorOrgId: ORG.managing, unitIds: ['gpu-0', 'gpu-2', 'gpu-3'], details: { scheduleId: s.id, tenantsTold: 2 } });
    // Both spot VMs (vm-spot-a on gpu-0+gpu-1, vm-spot-b on gpu-2), never the reserved one; no reservation or schedule named.
    expect(await notices()).toEqual([
      {
        orgId: ORG.tenantA,
        vmId: 'vm-spot-a',
        nodeId: 'n1',
        unitIds: ['gpu-0', 'gpu-1'],
        change: 'scheduled',
        reclaimAt: at(2).toISOString(),
        notBefore: at(2).toISOString(),
        reason: 'maintenance',
      },
      {
        orgId: ORG.tenantB,
        vmId: 'vm-spot-b',
        nodeId: 'n1',
        unitIds: ['gpu-2'],
        change: 'scheduled',
        reclaimAt: at(2).toISOString(),
        notBefore: at(2).toISOString(),
        reason: 'maintenance',
      },
    ]);
    // The owner sees who scheduled it by org only; the scheduler's own org sees the key too.
    const [seen] = (await listReclaimSchedules({ ctx: as(ORG.owner), input: key })).items;
    expect(seen!.createdBy).toEqual({ orgId: ORG.managing });
  });

  it('shows reclaimAt on the units to everyone and on the running spot VMs, placed before or after', async () => {
    await schedule(['gpu-2', 'gpu-3'], 3);
    const node = await getNode({ ctx: as(ORG.other), input: { nodeId: 'n1' } });
    const byId = new Map(node.units.map((u) => [u.id, u]));
    expect(byId.get('gpu-2')?.reclaimAt).toBe(at(3).toISOString());
    expect(byId.get('gpu-3')?.reclaimAt).toBe(at(3).toISOString());
    expect(byId.get('gpu-1')).not.toHaveProperty('reclaimAt');
    expect((await getVm({ ctx: as(ORG.tenantB), input: { vmId: 'vm-spot-b' } })).reclaimAt).toBe(at(3).toISOString());
    expect(await getVm({ ctx: as(ORG.tenantA), input: { vmId: 'vm-spot-a' } })).not.toHaveProperty('reclaimAt');
    // A buyer placing on gpu-3 after the schedule learns it in the answer.
    const placed = await placeVm({ ctx: as(ORG.tenantA, at(1)), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
    expect(placed.reclaimAt).toBe(at(3).toISOString());
  });

  it('refuses a bad time (422 naming at), the audience (403), a stray unit (422) and a unit already scheduled (409), writing nothing', async () => {
    for (const h of [-1, 25, 24 * 31]) {
      const e = await failure(schedule(['gpu-3'], h));
      expect(e.code).toBe('invalid_schedule_time');
      expect(e.extras.errors?.[0]?.path).toBe('body.at');
    }
    expect((await failure(schedule(['gpu-3'], 2, ORG.audience))).code).toBe('forbidden');
    expect((await failure(schedule(['gpu-7']))).code).toBe('unit_not_in_reservation');
    await schedule(['gpu-2', 'gpu-3']);
    const taken = await failure(schedule(['gpu-1', 'gpu-3', 'gpu-2'], 4));
    expect(taken).toMatchObject({ code: 'already_scheduled', extras: { unitIds: ['gpu-2', 'gpu-3'] } });
    expect(await db().select().from(reclaimSchedules)).toHaveLength(1);
  });
});

describe('running a scheduled reclaim exactly once (docs/product.md §5.6)', () => {
  it('the next writer on the node runs a due reclaim first: a placement on a unit past its time is refused with no sweeper', async () => {
    const s = await schedule(['gpu-2', 'gpu-3'], 2);
    const late = await failure(placeVm({ ctx: as(ORG.tenantA, at(2.5)), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } }));
    expect(late).toMatchObject({ code: 'unit_unavailable', extras: { unitIds: ['gpu-3'] } });
    const [row] = await db().select().from(reclaimSchedules).where(eq(reclaimSchedules.id, s.id));
    expect(row).toMatchObject({ status: 'done', outcome: { terminated: ['vm-spot-b'], skipped: [] } });
    const [run, ...more] = await events('reservation.reclaim');
    expect(more).toHaveLength(0);
    // The run acts as the scheduler, via schedule, at the time the writer held the lock.
    expect(run).toMatchObject({
      actorOrgId: ORG.managing,
      actorApiKeyId: `key_${ORG.managing}`,
      via: 'schedule',
      unitIds: ['gpu-2', 'gpu-3'],
      details: { scheduleId: s.id },
    });
    expect(run!.at.toISOString()).toBe(at(2.5).toISOString());
    const [ended] = await db().select().from(vms).where(eq(vms.id, 'vm-spot-b'));
    expect(ended).toMatchObject({ status: 'terminated', terminationReason: 'reclaimed' });
    expect(await db().select().from(reclaimScheduleUnits)).toHaveLength(0);
  });

  it('two sweepers racing past `at` on the test clock run it once: one reclaim event, one termination per VM', async () => {
    process.env.TEST_CLOCK = '1';
    const s = await schedule(['gpu-0', 'gpu-2'], 2);
    expect(await sweepDueReclaims(db())).toBe(0);
    await setClockOffsetMs(db(), 2.5 * 3_600_000);
    const ran = await Promise.all([sweepDueReclaims(db()), sweepDueReclaims(db()), sweepDueReclaims(db())]);
    expect(ran.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await events('reservation.reclaim')).toHaveLength(1);
    const reclaimed = await db().select().from(notifications).where(eq(notifications.kind, 'vm.reclaimed'));
    expect(reclaimed.map((n) => (n.details as { vmId: string }).vmId).sort()).toEqual(['vm-spot-a', 'vm-spot-b']);
    const [row] = await db().select().from(reclaimSchedules).where(eq(reclaimSchedules.id, s.id));
    expect(row!.status).toBe('done');
  });

  it('a normal start ignores the test clock', async () => {
    await setClockOffsetMs(db(), 10 * 3_600_000);
    expect(await readClockOffsetMs(db())).toBe(0);
    await schedule(['gpu-3'], 2);
    expect(await sweepDueReclaims(db())).toBe(0);
    process.env.TEST_CLOCK = '1';
    expect(await readClockOffsetMs(db())).toBe(10 * 3_600_000);
  });
});

describe('changing, dropping and lapsing scheduled reclaims (docs/product.md §5.6)', () => {
  it('reschedules and cancels, audited and re-notified; a cancelled one is 409 schedule_not_pending', async () => {
    const s = await schedule(['gpu-2'], 2);
    const moved = await rescheduleReclaim({ ctx: as(ORG.owner), input: { ...key, scheduleId: s.id, at: at(5) } });
    expect(moved.at).toBe(at(5).toISOString());
    const cancelled = await cancelReclaimSchedule({ ctx: as(ORG.owner), input: { ...key, scheduleId: s.id } });
    expect(cancelled.status).toBe('cancelled');
    const again = await failure(cancelReclaimSchedule({ ctx: as(ORG.owner), input: { ...key, scheduleId: s.id } }));
    expect(again).toMatchObject({ code: 'schedule_not_pending', extras: { scheduleStatus: 'cancelled' } });
    expect((await failure(rescheduleReclaim({ ctx: as(ORG.audience), input: { ...key, scheduleId: s.id, at: at(6) } }))).code).toBe('forbidden');
    expect((await events('reclaim_schedule.update'))[0]).toMatchObject({
      actorOrgId: ORG.owner,
      details: { previousAt: at(2).toISOString(), at: at(5).toISOString() },
    });
    expect(await events('reclaim_schedule.cancel')).toHaveLength(1);
    expect((await notices()).map((n) => [n.vmId, n.change, n.reclaimAt, n.previousAt])).toEqual([
      ['vm-spot-b', 'scheduled', at(2).toISOString(), undefined],
      ['vm-spot-b', 'rescheduled', at(5).toISOString(), at(2).toISOString()],
      ['vm-spot-b', 'cancelled', at(5).toISOString(), undefined],
    ]);
    // Its units are free for another schedule.
    await schedule(['gpu-2'], 3);
  });

  it('drops units that leave: a shrink and an immediate reclaim; a schedule left with none lapses', async () => {
    const s = await schedule(['gpu-2', 'gpu-3', 'gpu-5'], 4);
    await updateReservation({ ctx: as(ORG.owner), input: { ...key, reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'] } });
    await reclaim({ ctx: as(ORG.managing, at(1)), input: { ...key, unitIds: ['gpu-2'] } });
    let [row] = await db().select().from(reclaimSchedules).where(eq(reclaimSchedules.id, s.id));
    expect(row).toMatchObject({ status: 'pending', unitIds: ['gpu-3'] });
    const drops = await events('reclaim_schedule.update');
    expect(drops.map((e) => [e.actorOrgId, e.details.droppedUnitIds])).toEqual([
      [ORG.owner, ['gpu-5']],
      [ORG.managing, ['gpu-2']],
    ]);
    // vm-spot-b on gpu-2 was told of the schedule, then reclaimed now (vm.reclaimed): no drop notice to a VM that ended.
    expect((await notices()).map((n) => [n.vmId, n.change])).toEqual([['vm-spot-b', 'scheduled']]);
    await reclaim({ ctx: as(ORG.managing, at(1)), input: { ...key, unitIds: ['gpu-3'] } });
    [row] = await db().select().from(reclaimSchedules).where(eq(reclaimSchedules.id, s.id));
    expect(row).toMatchObject({ status: 'lapsed', lapseReason: 'no_units_left', unitIds: [] });
  });

  it('lapses when its reservation is cancelled or ends first, or its scheduler may no longer reclaim, naming the system job', async () => {
    const first = await schedule(['gpu-2'], 2);
    const second = await schedule(['gpu-3'], 6);
    // An earlier end lapses the later one only.
    await updateReservation({ ctx: as(ORG.owner), input: { ...key, endsAt: at(5) } });
    // The managing org is no longer one when the first comes due.
    await updateReservation({ ctx: as(ORG.owner), input: { ...key, managingOrgIds: [] } });
    await placeVm({ ctx: as(ORG.tenantA, at(3)), input: { nodeId: 'n1', unitIds: ['gpu-5'], tier: 'spot' } }).catch(() => undefined);
    const rows = new Map((await db().select().from(reclaimSchedules)).map((r) => [r.id, r]));
    expect(rows.get(second.id)).toMatchObject({ status: 'lapsed', lapseReason: 'reservation_ended' });
    expect(rows.get(first.id)).toMatchObject({ status: 'lapsed', lapseReason: 'scheduler_may_not_reclaim' });
    const lapses = await events('reclaim_schedule.lapse');
    expect(lapses.map((e) => [e.actorJob, e.via, e.details.lapseReason])).toEqual([
      ['schedule', 'schedule', 'reservation_ended'],
      ['schedule', 'schedule', 'scheduler_may_not_reclaim'],
    ]);
    expect(await events('reservation.reclaim')).toHaveLength(0);
    // A cancelled reservation lapses what it still had pending.
    const third = await createReclaimSchedule({ ctx: as(ORG.owner), input: { ...key, unitIds: ['gpu-0'], at: at(4) } });
    await cancelReservation({ ctx: as(ORG.owner), input: key });
    const [row] = await db().select().from(reclaimSchedules).where(eq(reclaimSchedules.id, third.id));
    expect(row).toMatchObject({ status: 'lapsed', lapseReason: 'reservation_cancelled' });
    expect((await notices()).at(-1)).toMatchObject({ vmId: 'vm-spot-a', change: 'lapsed' });
    // The reservation's units stay as the run never happened.
    expect((await db().select().from(reservationUnits).where(eq(reservationUnits.unitId, 'gpu-3')))[0]!.released).toBe(true);
  });
});
