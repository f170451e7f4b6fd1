import { countFleet, generateFleet } from '@/db/fleet';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFleet } from '../demo';
import { checkInvariants } from './invariants';

// The benchmark fleet (db/fleet.ts) at a small size: counts as asked, every invariant of the
// checker holds, the history is audited one event per change, and the principals exist.

let t: TestDatabase;
let seededAt: Date;
const NODES = 50;
const HISTORY = 6;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemoFleet(t.db, new Date());
  const [row] = await t.db.execute<{ now: string }>(sql`select now()::text as now`);
  seededAt = new Date(row!.now);
});
afterAll(async () => t?.close());

describe('generateFleet', () => {
  it('adds the nodes, units, reservations, VMs, audit events and notifications asked for, on top of the demo seed', async () => {
    const before = await countFleet(t.db);
    const after = await generateFleet(t.db, { nodes: NODES, historyPerNode: HISTORY, now: seededAt });
    // Running per node: reserved + 2 spot on even nodes, on-demand every third, spot on gpu-7 every fourth.
    const running = Array.from({ length: NODES }, (_, j) => j + 1).reduce(
      (s, i) => s + (i % 2 === 0 ? 3 : 0) + (i % 3 === 0 ? 1 : 0) + (i % 4 === 0 ? 1 : 0),
      0,
    );
    expect(after.nodes - before.nodes).toBe(NODES);
    expect(after.units - before.units).toBe(NODES * 8);
    expect(after.reservations - before.reservations).toBe(NODES * 4);
    expect(after.vms - before.vms).toBe(NODES * HISTORY + running);
    expect(after.runningVms - before.runningVms).toBe(running);
    expect(after.notifications - before.notifications).toBe(NODES);
    // register + 4 creates + release (even) + cancel + a place per VM + an end per ended VM + topology (every 50th).
    const events = NODES * (1 + 4 + 1) + NODES / 2 + (NODES * HISTORY + running) + NODES * HISTORY + Math.floor(NODES / 50);
    expect(after.auditEvents - before.auditEvents).toBe(events);
  });

  it('leaves a database where every invariant holds', async () => {
    // The demo seed's rows carry no audit events by design (db/factories.ts): hold to the audit
    // rules only what came after it — and below, the fleet's own history, event by event.
    expect(await checkInvariants(t.db, { auditSince: seededAt })).toEqual([]);
  });

  it('audits the fleet history as the verbs would: one vm.place per VM, one ending event per ended VM, times in commit order', async () => {
    const [row] = await t.db.execute<{ unplaced: number; unended: number; unnotified: number; disorder: number }>(sql`select
      (select count(*)::int from vms v where v.node_id like 'fleet-%'
        and (select count(*) from audit_events e where e.action = 'vm.place' and e.details->>'vmId' = v.id and e.node_id = v.node_id and e.at = v.started_at) <> 1) as unplaced,
      (select count(*)::int from vms v where v.node_id like 'fleet-%' and v.status = 'terminated'
        and (select count(*) from audit_events e where e.node_id = v.node_id and e.at = v.terminated_at
              and ((v.termination_reason = 'terminated' and e.action = 'vm.terminate' and e.details->>'vmId' = v.id)
                or (v.termination_reason = 'reclaimed' and e.action = 'reservation.reclaim' and e.details->'terminated' ? v.id))) <> 1) as unended,
      (select count(*)::int from vms v where v.termination_reason = 'reclaimed'
        and (select count(*) from notifications n where n.org_id = v.org_id and n.details->>'vmId' = v.id) <> 1) as unnotified,
      (select count(*)::int from (select at < lag(at) over (partition by node_id order by seq) as back from audit_events) x where back) as disorder`);
    expect(row).toEqual({ unplaced: 0, unended: 0, unnotified: 0, disorder: 0 });
  });

  it('has reservations in every status, and an org that sees few audit events', async () => {
    const statuses = await t.db.execute<{ status: string; n: number }>(sql`select case
        when r.cancelled_at is not null then 'cancelled' when r.ends_at <= ${seededAt.toISOString()}::timestamptz then 'expired'
        when r.topology_gen < n.topology_gen then 'needs-review' when r.starts_at > ${seededAt.toISOString()}::timestamptz then 'pending' else 'active' end as status,
        count(*)::int as n
      from reservations r join nodes n on n.id = r.node_id where n.id like 'fleet-%' group by 1 order by 1`);
    expect([...statuses].map((s) => s.status)).toEqual(['active', 'cancelled', 'expired', 'needs-review', 'pending']);
    const [few] = await t.db.execute<{ zephyr: number; all: number }>(sql`select
      (select count(*)::int from audit_events e left join nodes n on n.id = e.node_id left join reservations r on r.node_id = e.node_id and r.id = e.reservation_id
        where e.actor_org_id = 'org_zephyr' or n.owner_org_id = 'org_zephyr' or 'org_zephyr' = any(coalesce(r.managing_org_ids, '{}'))) as zephyr,
      (select count(*)::int from audit_events) as all`);
    expect(few!.zephyr).toBeGreaterThan(0);
    expect(few!.zephyr * 50).toBeLessThan(few!.all);
  });
});
