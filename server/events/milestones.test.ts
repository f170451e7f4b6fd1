import { events } from '@/db/schema';
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../clock';
import { platformOrgId } from '../context';
import { cancelReservation } from '../reservations/cancel';
import { createReservation } from '../reservations/create';
import { updateReservation } from '../reservations/update';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor, hours } from '../testing/scene';
import { emitDueMilestones, purgeOldEvents } from './milestones';
import { writeEvents } from './write';

// The sweep reads PostgreSQL's clock (plus the test clock's offset), as it does in production.
const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const at = (h: number) => hours(h, BASE);

afterEach(() => {
  delete process.env.TEST_CLOCK;
});

/** The operator's copies of the time-driven events, as [type, reservationId, data.startsAt|endsAt]. */
async function told() {
  const rows = await db().select().from(events).where(eq(events.orgId, platformOrgId())).orderBy(asc(events.xid), asc(events.seq));
  return rows
    .filter((r) => r.type === 'reservation.started' || r.type === 'reservation.expired')
    .map((r) => [r.type, r.data.reservationId, r.data.startsAt ?? r.data.endsAt]);
}

const moveClock = async (h: number) => {
  process.env.TEST_CLOCK = '1';
  await setClockOffsetMs(db(), h * 3_600_000);
};

const create = (id: string, unit: string, startsAt: Date | undefined, endsAt: Date | undefined) =>
  createReservation({
    ctx: ctxFor(db(), ORG.owner, BASE),
    input: { nodeId: 'n1', id, reservedUnitIds: [unit], allowedOrgIds: [ORG.audience], ...(startsAt ? { startsAt } : {}), ...(endsAt ? { endsAt } : {}) },
  });

describe('reservation.started and reservation.expired (docs/product.md §5.7)', () => {
  it('are emitted exactly once when the clock passes startsAt and endsAt, whichever sweep gets there', async () => {
    await create('r-now', 'gpu-6', undefined, at(2));
    await create('r-later', 'gpu-6', at(3), at(5));
    // Starting now: told of by the next sweep, never twice.
    expect(await Promise.all([emitDueMilestones(db()), emitDueMilestones(db())])).toEqual(expect.arrayContaining([1, 0]));
    expect(await told()).toEqual([['reservation.started', 'r-now', BASE.toISOString()]]);

    await moveClock(4);
    const counts = await Promise.all([emitDueMilestones(db()), emitDueMilestones(db()), emitDueMilestones(db())]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    await moveClock(6);
    await emitDueMilestones(db());
    expect(await emitDueMilestones(db())).toBe(0);
    expect(await told()).toEqual([
      ['reservation.started', 'r-now', BASE.toISOString()],
      ['reservation.expired', 'r-now', at(2).toISOString()],
      ['reservation.started', 'r-later', at(3).toISOString()],
      ['reservation.expired', 'r-later', at(5).toISOString()],
    ]);
  });

  it('follow a PATCH of endsAt, and a cancelled reservation neither starts nor expires', async () => {
    await create('r-moved', 'gpu-6', at(1), at(2));
    await create('r-open', 'gpu-7', at(1), at(2));
    await create('r-gone', 'gpu-5', at(30), at(40));
    await updateReservation({ ctx: ctxFor(db(), ORG.owner, BASE), input: { nodeId: 'n1', reservationId: 'r-moved', endsAt: at(4) } });
    await updateReservation({ ctx: ctxFor(db(), ORG.owner, BASE), input: { nodeId: 'n1', reservationId: 'r-open', endsAt: null } });
    await cancelReservation({ ctx: ctxFor(db(), ORG.owner, BASE), input: { nodeId: 'n1', reservationId: 'r-gone' } });
    await moveClock(50);
    await emitDueMilestones(db());
    expect(await told()).toEqual([
      ['reservation.started', 'r-moved', at(1).toISOString()],
      ['reservation.started', 'r-open', at(1).toISOString()],
      ['reservation.expired', 'r-moved', at(4).toISOString()],
    ]);
  });

  it('are addressed to the orgs that stand to the reservation when they are emitted', async () => {
    await create('r-x', 'gpu-6', at(1), undefined);
    await updateReservation({ ctx: ctxFor(db(), ORG.owner, BASE), input: { nodeId: 'n1', reservationId: 'r-x', allowedOrgIds: [ORG.other] } });
    await moveClock(2);
    await emitDueMilestones(db());
    const started = await db().select().from(events).where(eq(events.type, 'reservation.started'));
    expect(started.map((r) => r.orgId).sort()).toEqual([ORG.other, ORG.owner, platformOrgId()].sort());
  });
});

describe('retention (docs/product.md §5.7)', () => {
  it('purges events older than 30 days (and an hour), and keeps the others', async () => {
    const fact = (days: number) => ({
      type: 'node.registered' as const,
      at: new Date(Date.now() - days * 86_400_000),
      nodeId: `n-${days}`,
      data: { nodeId: `n-${days}` },
      to: {},
    });
    await db().transaction((tx) => writeEvents(tx, [fact(31), fact(29)]));
    expect(await purgeOldEvents(db())).toBe(1);
    expect((await db().select().from(events)).map((r) => r.nodeId)).toEqual(['n-29']);
  });
});
