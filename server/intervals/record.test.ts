/**
 * The record of unit intervals (docs/product.md §5.8): what each verb writes, in its own
 * transaction, and that migration 0014's backfill tells the same history from the rows and the
 * audit trail.
 */
import type { Db } from '@/db/client';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { changeTopology } from '../nodes/topology';
import { cancelReservation } from '../reservations/cancel';
import { createReservation } from '../reservations/create';
import { reaffirm } from '../reservations/reaffirm';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { updateReservation } from '../reservations/update';
import { createReclaimSchedule } from '../scheduled-reclaims/create';
import { useFreshScene } from '../testing/fresh-scene';
import { checkInvariants } from '../testing/invariants';
import { openRowsSql } from './record';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { placeVm } from '../vms/place';
import { terminateVm } from '../vms/terminate';

const scene = useFreshScene();
const db = () => scene().db;
const as = (orgId: string, h: number) => ctxFor(db(), orgId, hours(h));

/** Every interval row as `kind unit subject from→to open endedBy`, times in hours from T0. */
async function record(d: Db, where = sql`true`): Promise<string[]> {
  const rows = await d.execute<{
    kind: string;
    unit_id: string;
    subject: string;
    starts_at: string;
    ends_at: string | null;
    open: boolean;
    ended_by: string | null;
  }>(
    sql`select kind, unit_id, coalesce(vm_id, reservation_id) || case when kind = 'vm' then coalesce('@' || reservation_id, '@free') else '' end as subject,
          starts_at, ends_at, open, ended_by from unit_intervals where ${where}`,
  );
  const h = (t: string | null) => (t === null ? '∞' : String((new Date(t).getTime() - T0.getTime()) / 3_600_000));
  return rows
    .map((r) => `${r.kind} ${r.unit_id} ${r.subject} ${h(r.starts_at)}→${h(r.ends_at)}${r.open ? ' open' : ''}${r.ended_by ? ` ${r.ended_by}` : ''}`)
    .sort();
}

describe('the verbs record unit intervals', () => {
  it('create, release, place, reclaim, terminate: each opens or closes its rows at its clock', async () => {
    await createReservation({
      ctx: as(ORG.owner, 1),
      input: { nodeId: 'n1', id: 'r2', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], endsAt: hours(10) },
    });
    await release({ ctx: as(ORG.managing, 2), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    const spot = await placeVm({ ctx: as(ORG.tenantA, 3), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } });
    const result = await reclaim({ ctx: as(ORG.managing, 4), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    expect(result.terminated).toEqual([spot.id]);
    expect(await record(db(), sql`unit_id = 'gpu-6'`)).toEqual([
      'released gpu-6 r2 2→4 reclaim',
      'reserved gpu-6 r2 1→10 open',
      `vm gpu-6 ${spot.id}@r2 3→4 reclaim`,
    ]);
    // A tenant's own termination, and a VM on a free unit (no reservation's capacity).
    await terminateVm({ ctx: as(ORG.tenantB, 5), input: { vmId: 'vm-od' } });
    expect(await record(db(), sql`vm_id = 'vm-od'`)).toEqual(['vm gpu-7 vm-od@free -5→5 terminate']);
    expect(await checkInvariants(db(), { now: hours(5), auditSince: T0 })).toEqual([]);
  });

  it('a shrink closes the units that left; a new endsAt moves the plan of the rest', async () => {
    await updateReservation({
      ctx: as(ORG.owner, 1),
      input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-4', 'gpu-5'] },
    });
    // gpu-3 was released and idle: both its rows end by the shrink.
    expect(await record(db(), sql`unit_id = 'gpu-3'`)).toEqual(['released gpu-3 r1 -24→1 shrink', 'reserved gpu-3 r1 -24→1 shrink']);
    await updateReservation({ ctx: as(ORG.owner, 2), input: { nodeId: 'n1', reservationId: 'r1', endsAt: hours(30) } });
    expect(await record(db(), sql`unit_id = 'gpu-0'`)).toEqual([
      'released gpu-0 r1 -24→30 open',
      'reserved gpu-0 r1 -24→30 open',
      'vm gpu-0 vm-spot-a@r1 -2→∞ open',
    ]);
    expect(await checkInvariants(db(), { now: hours(2), auditSince: T0 })).toEqual([]);
  });

  it('a cancel cuts what began and deletes what never did', async () => {
    await createReservation({
      ctx: as(ORG.owner, 1),
      input: { nodeId: 'n1', id: 'r-later', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(5), endsAt: hours(9) },
    });
    expect(await record(db(), sql`reservation_id = 'r-later'`)).toEqual(['reserved gpu-6 r-later 5→9 open']);
    await cancelReservation({ ctx: as(ORG.owner, 2), input: { nodeId: 'n1', reservationId: 'r-later' } });
    expect(await record(db(), sql`reservation_id = 'r-later'`)).toEqual([]);
    await cancelReservation({ ctx: as(ORG.owner, 3), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(await record(db(), sql`kind <> 'vm' and unit_id = 'gpu-0'`)).toEqual(['released gpu-0 r1 -24→3 cancel', 'reserved gpu-0 r1 -24→3 cancel']);
    // The VMs on a cancelled reservation's units keep running (docs/product.md §5): their rows stay open.
    expect(await record(db(), sql`vm_id = 'vm-spot-a'`)).toEqual(['vm gpu-0 vm-spot-a@r1 -2→∞ open', 'vm gpu-1 vm-spot-a@r1 -2→∞ open']);
    expect(await checkInvariants(db(), { now: hours(3), auditSince: T0 })).toEqual([]);
  });

  it('a topology change opens needs-review windows; the re-affirm closes them', async () => {
    const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 96 }));
    await changeTopology({ ctx: as(ORG.platform, 1), input: { nodeId: 'n1', units } });
    expect(await record(db(), sql`kind = 'needs-review' and unit_id = 'gpu-5'`)).toEqual(['needs-review gpu-5 r1 1→24 open']);
    await reaffirm({ ctx: as(ORG.platform, 2), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(await record(db(), sql`kind = 'needs-review'`)).toHaveLength(6);
    expect(await record(db(), sql`kind = 'needs-review' and unit_id = 'gpu-5'`)).toEqual(['needs-review gpu-5 r1 1→2 reaffirm']);
    expect(await checkInvariants(db(), { now: hours(2), auditSince: T0 })).toEqual([]);
  });

  it('a scheduled reclaim records its run as a reclaim, at the time it ran', async () => {
    await createReclaimSchedule({ ctx: as(ORG.managing, 1), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-2'], at: hours(2) } });
    // The next writer on the node settles the due run first (docs/product.md §5.6).
    await placeVm({ ctx: as(ORG.tenantA, 3), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } });
    expect(await record(db(), sql`unit_id = 'gpu-2'`)).toEqual([
      'released gpu-2 r1 -24→3 reclaim',
      'reserved gpu-2 r1 -24→24 open',
      'vm gpu-2 vm-spot-b@r1 -1→3 reclaim',
    ]);
  });
});

/** Migration 0014's backfill statements (everything after its DDL), as the migration runs them. */
function backfillStatements(): string[] {
  const file = readFileSync(path.join(process.cwd(), 'db/migrations/0014_unit_intervals.sql'), 'utf8');
  return file
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /INSERT INTO "unit_intervals"/.test(s));
}

describe('a close finds its open rows without walking the history', () => {
  it('after many releases and reclaims, each close reads one row per unit and kind, and the record stays whole', async () => {
    // r1 holds gpu-0 … gpu-5 (gpu-0 … gpu-3 released by the scene; gpu-5 idle); gpu-5 goes to market and back 40 times.
    for (let i = 0; i < 40; i++) {
      await release({ ctx: as(ORG.managing, 1 + i / 10), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
      await reclaim({ ctx: as(ORG.managing, 1.05 + i / 10), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    }
    await release({ ctx: as(ORG.managing, 6), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    // The probe of every kind on every unit of r1, as cancel runs it: no scan of unit_intervals
    // returns more than one row per loop, however long gpu-5's released history.
    const probe = openRowsSql({ nodeId: 'n1', reservationId: 'r1' })!;
    const client = postgres(scene().url, { max: 1, onnotice: () => {} });
    const q = new PgDialect().sqlToQuery(probe);
    const plan = await client.unsafe(`explain (analyze, costs off) ${q.sql}`, q.params as never[]).finally(() => client.end());
    const text = plan.map((r) => String((r as Record<string, unknown>)['QUERY PLAN'])).join('\n');
    const scans = [...text.matchAll(/Scan[^\n]* on unit_intervals i[^\n]*rows=([\d.]+) loops=(\d+)/g)];
    expect(scans.length, text).toBeGreaterThan(0);
    for (const [line, rows] of scans) expect(Number(rows), line).toBeLessThanOrEqual(1);
    expect(text).not.toMatch(/Rows Removed by Filter/);

    await cancelReservation({ ctx: as(ORG.owner, 7), input: { nodeId: 'n1', reservationId: 'r1' } });
    const gpu5 = await record(db(), sql`unit_id = 'gpu-5' and reservation_id = 'r1' and kind = 'released'`);
    expect(gpu5).toHaveLength(41);
    expect(gpu5.filter((r) => r.includes(' open'))).toEqual([]);
    expect(gpu5).toContain('released gpu-5 r1 6→7 cancel');
    // The scene's factories write no audit events, so only the record's own invariant is asked.
    expect((await checkInvariants(db())).filter((v) => v.invariant === 'intervals-agree')).toEqual([]);
  });
});

describe('the open row is the last one written, whatever the clock said', () => {
  it('a release timed before the last reclaim (a clock stepped back) is still found, cut and cancelled', async () => {
    await release({ ctx: as(ORG.managing, 3), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await reclaim({ ctx: as(ORG.managing, 4), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await release({ ctx: as(ORG.managing, 2), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await reclaim({ ctx: as(ORG.managing, 5), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    expect(await record(db(), sql`unit_id = 'gpu-5' and kind = 'released'`)).toEqual(['released gpu-5 r1 2→5 reclaim', 'released gpu-5 r1 3→4 reclaim']);
    await release({ ctx: as(ORG.managing, 1), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await cancelReservation({ ctx: as(ORG.owner, 6), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect((await record(db(), sql`reservation_id = 'r1' and kind <> 'vm'`)).filter((r) => r.includes(' open'))).toEqual([]);
    expect((await checkInvariants(db())).filter((v) => v.invariant === 'intervals-agree')).toEqual([]);
  });

  it("migration 0018 writes again an open row that migration 0014's backfill left below a closed one of its key", async () => {
    // As the backfill may have written them: gpu-5's open released row first, an older closed one after it.
    await db().execute(sql`update reservation_units set released = true where node_id = 'n1' and reservation_id = 'r1' and unit_id = 'gpu-5'`);
    await db().execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at)
      select 'n1', 'gpu-5', 'released', 'r1', ${hours(2).toISOString()}::timestamptz, ends_at from reservations where node_id = 'n1' and id = 'r1'`);
    await db().execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at, open, ended_by)
      values ('n1', 'gpu-5', 'released', 'r1', ${hours(0.5).toISOString()}::timestamptz, ${hours(1).toISOString()}::timestamptz, false, 'reclaim')`);
    expect((await checkInvariants(db())).filter((v) => v.invariant === 'intervals-agree').map((v) => v.kind)).toEqual(['open-interval-not-latest']);
    const file = readFileSync(path.join(process.cwd(), 'db/migrations/0018_fewer_reclaim_writes.sql'), 'utf8');
    const repair = file.split('--> statement-breakpoint').find((s) => s.includes('WITH "stale"'))!;
    await db().execute(sql.raw(repair));
    expect((await checkInvariants(db())).filter((v) => v.invariant === 'intervals-agree')).toEqual([]);
    await reclaim({ ctx: as(ORG.managing, 3), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    expect(await record(db(), sql`unit_id = 'gpu-5' and kind = 'released'`)).toEqual(['released gpu-5 r1 0.5→1 reclaim', 'released gpu-5 r1 2→3 reclaim']);
  });
});

describe('migration 0014 backfills the same record from the rows and the audit trail', () => {
  it('after a history of verbs, the backfill equals what the verbs wrote', async () => {
    await createReservation({
      ctx: as(ORG.owner, 1),
      input: { nodeId: 'n1', id: 'r2', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], endsAt: hours(20) },
    });
    await release({ ctx: as(ORG.managing, 2), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    await placeVm({ ctx: as(ORG.tenantA, 3), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } });
    await reclaim({ ctx: as(ORG.managing, 4), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    await release({ ctx: as(ORG.managing, 5), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'] } });
    await reclaim({ ctx: as(ORG.managing, 6), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-2'] } });
    await updateReservation({
      ctx: as(ORG.owner, 7),
      input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-4', 'gpu-5'] },
    });
    await createReservation({
      ctx: as(ORG.owner, 8),
      input: { nodeId: 'n1', id: 'r3', reservedUnitIds: ['gpu-3'], allowedOrgIds: [ORG.audience], startsAt: hours(30), endsAt: hours(40) },
    });
    const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 96 }));
    await changeTopology({ ctx: as(ORG.platform, 9), input: { nodeId: 'n1', units } });
    await reaffirm({ ctx: as(ORG.platform, 10), input: { nodeId: 'n1', reservationId: 'r2' } });
    await cancelReservation({ ctx: as(ORG.owner, 11), input: { nodeId: 'n1', reservationId: 'r2' } });
    await terminateVm({ ctx: as(ORG.tenantB, 12), input: { vmId: 'vm-od' } });

    // The scene's factories released r1's gpu-0 … gpu-3 with no audit event; the verbs would have
    // written this one. Without it the audit trail cannot tell that gpu-0, gpu-2 and gpu-3 were
    // on the market until the reclaim and the shrink (a reclaim names units, not which of them
    // were released), so the backfill would miss those three rows.
    await db().execute(sql`insert into audit_events (id, at, action, actor_org_id, actor_job, via, node_id, reservation_id, unit_ids, details)
      values ('evt_scene_release', ${hours(-24).toISOString()}, 'reservation.release', ${ORG.platform}, 'scene', 'schedule', 'n1', 'r1',
        array['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], '{"released": ["gpu-0", "gpu-1", "gpu-2", "gpu-3"]}')`);
    const written = await record(db());
    expect(written.length).toBeGreaterThan(20);
    await db().execute(sql`delete from unit_intervals`);
    for (const statement of backfillStatements()) await db().execute(sql.raw(statement));
    expect(await record(db())).toEqual(written);
  });
});
