/**
 * The node timeline (docs/product.md §5.8 Node timeline) per persona, on real PostgreSQL: what
 * each principal of §2's columns sees of the record, the window's validation, and its plan.
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { createReservation } from '../reservations/create';
import { reclaim } from '../reservations/reclaim';
import { createReclaimSchedule } from '../scheduled-reclaims/create';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { changeTopology } from './topology';
import { getNodeTimeline, timelineItemsQuery } from './timeline';
import { GetNodeTimelineInput } from './schemas';

const scene = useFreshScene();
const db = () => scene().db;
const as = (orgId: string, h = 0) => ctxFor(db(), orgId, hours(h));
const timeline = (orgId: string, input: Partial<GetNodeTimelineInput> = {}, h = 0) => getNodeTimeline({ ctx: as(orgId, h), input: { nodeId: 'n1', ...input } });
/** A row as `kind unit subject`, the subject its VM (with `@reservation` where shown) or reservation. */
const rows = (t: Awaited<ReturnType<typeof timeline>>) =>
  t.items.map((i) => `${i.kind} ${i.unitId} ${i.vmId ? `${i.vmId}${i.reservationId ? `@${i.reservationId}` : ''}` : i.reservationId}`).sort();

/**
 * Beside the scene (r1 on gpu-0…5, VMs vm-spot-a/b, vm-res, vm-od): a pending reservation r2 on
 * gpu-6 for org_other (audience only), a reclaim of gpu-3 by r1's managing org, a scheduled
 * reclaim of gpu-1, and a topology change.
 */
async function history() {
  await createReservation({
    ctx: as(ORG.owner, 1),
    input: { nodeId: 'n1', id: 'r2', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.other], managingOrgIds: [], startsAt: hours(48), endsAt: hours(72) },
  });
  await reclaim({ ctx: as(ORG.managing, 2), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-3'] } });
  await createReclaimSchedule({ ctx: as(ORG.managing, 2), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-1'], at: hours(20) } });
}

describe('the node timeline (GET /v1/nodes/{nodeId}/timeline, docs/product.md §5.8)', () => {
  it('the operator and the node owner see every row, pending reservations ahead, and every event', async () => {
    await history();
    for (const org of [ORG.platform, ORG.owner]) {
      const t = await timeline(org, {}, 3);
      expect(t.units.map((u) => u.id)).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
      expect(rows(t)).toEqual(
        expect.arrayContaining([
          'reserved gpu-0 r1',
          'released gpu-0 r1',
          'released gpu-3 r1',
          'reserved gpu-6 r2',
          'vm gpu-0 vm-spot-a@r1',
          'vm gpu-2 vm-spot-b@r1',
          'vm gpu-4 vm-res@r1',
          'vm gpu-7 vm-od',
        ]),
      );
      const pending = t.items.find((i) => i.reservationId === 'r2')!;
      expect(pending).toMatchObject({ open: true, startsAt: hours(48).toISOString(), endsAt: hours(72).toISOString() });
      expect(t.reservations.find((r) => r.id === 'r2')?.status).toBe('pending');
      const released3 = t.items.find((i) => i.kind === 'released' && i.unitId === 'gpu-3')!;
      expect(released3).toMatchObject({ open: false, endedBy: 'reclaim', endsAt: hours(2).toISOString() });
      expect(t.events.map((e) => e.kind)).toEqual(['reclaim', 'scheduled-reclaim']);
      expect(t.events[0]).toMatchObject({ at: hours(2).toISOString(), unitIds: ['gpu-3'], reservationId: 'r1' });
      expect(t.events[1]).toMatchObject({ at: hours(20).toISOString(), unitIds: ['gpu-1'], reservationId: 'r1' });
      // Tenant identity is private (§2): the owner sees no VM's org, the operator every one.
      expect(t.vms.find((v) => v.id === 'vm-spot-a')?.orgId).toBe(org === ORG.platform ? ORG.tenantA : undefined);
    }
  });

  it("r1's managing org sees r1's rows, VMs on r1's units, the scheduled reclaim; not r2", async () => {
    await history();
    const t = await timeline(ORG.managing, {}, 3);
    expect(rows(t)).toContain('released gpu-0 r1');
    expect(rows(t)).toContain('vm gpu-0 vm-spot-a@r1');
    expect(rows(t)).toContain('vm gpu-4 vm-res@r1');
    expect(rows(t).some((r) => r.includes('r2'))).toBe(false);
    // vm-od runs on gpu-7, outside r1: not the managing org's to see.
    expect(rows(t).some((r) => r.includes('vm-od'))).toBe(false);
    expect(t.events.map((e) => e.kind)).toEqual(['reclaim', 'scheduled-reclaim']);
    expect(t.reservations.map((r) => r.id)).toEqual(['r1']);
    expect(t.vms.every((v) => v.orgId === undefined)).toBe(true);
    // The console's read names the orgs it shows (§9.1 q): r1's audience, not a tenant it may not see.
    const named = await getNodeTimeline({ ctx: ctxFor(db(), ORG.managing, hours(3), 'console'), input: { nodeId: 'n1' } });
    expect(Object.keys(named.orgNames)).toEqual(expect.arrayContaining([ORG.audience, ORG.managing, ORG.owner]));
    expect(Object.keys(named.orgNames)).not.toContain(ORG.tenantA);
  });

  it("r1's audience sees r1's rows and its own VM, no scheduled reclaim (§5.6) and no other tenant's VM", async () => {
    await history();
    const t = await timeline(ORG.audience, {}, 3);
    expect(rows(t)).toContain('reserved gpu-5 r1');
    expect(rows(t)).toContain('vm gpu-4 vm-res@r1');
    expect(rows(t).some((r) => r.includes('vm-spot') || r.includes('vm-od') || r.includes('r2'))).toBe(false);
    expect(t.events.map((e) => e.kind)).toEqual(['reclaim']);
    expect(t.vms).toEqual([{ id: 'vm-res', tier: 'reserved', status: 'running', orgId: ORG.audience }]);
  });

  it('a spot tenant sees only its own VM, and never the reservation whose capacity it used', async () => {
    await history();
    const t = await timeline(ORG.tenantA, {}, 3);
    expect(rows(t)).toEqual(['vm gpu-0 vm-spot-a', 'vm gpu-1 vm-spot-a']);
    expect(t.items.every((i) => i.reservationId === undefined)).toBe(true);
    expect(t.reservations).toEqual([]);
    expect(t.events).toEqual([]);
    // The units' states now, like the grid.
    expect(t.units.find((u) => u.id === 'gpu-0')?.state).toBe('spot-occupied');
  });

  it('an unrelated org sees the states now and topology changes, no rows; an unknown node is 404', async () => {
    await history();
    await changeTopology({
      ctx: as(ORG.platform, 4),
      input: { nodeId: 'n1', units: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7', 'gpu-8'].map((id) => ({ id })) },
    });
    // org_other is r2's audience: it sees r2 only — reserved ahead, and needs review since the change.
    const t = await timeline(ORG.other, {}, 5);
    expect(rows(t)).toEqual(['needs-review gpu-6 r2', 'reserved gpu-6 r2']);
    const stranger = await getNodeTimeline({ ctx: ctxFor(db(), 'org_nobody', hours(5)), input: { nodeId: 'n1' } });
    expect(stranger.items).toEqual([]);
    expect(stranger.units).toHaveLength(9);
    expect(stranger.events).toEqual([{ kind: 'topology', at: expect.any(String), gen: 2 }]);
    const e = await getNodeTimeline({ ctx: as(ORG.owner), input: { nodeId: 'n-missing' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('not_found');
  });

  it('the window: default 7 days either side of now, rows outside it left out; reversed or over 31 days is 400 naming query.to', async () => {
    const t = await timeline(ORG.owner);
    expect(t.from).toBe(hours(-7 * 24).toISOString());
    expect(t.to).toBe(hours(7 * 24).toISOString());
    // A window after r1 ended and before anything else: only rows still open with no end (the VMs).
    const later = await timeline(ORG.owner, { from: hours(30), to: hours(40) });
    expect(later.items.every((i) => i.kind === 'vm' && i.endsAt === null)).toBe(true);
    for (const [from, to, message] of [
      [hours(10), hours(10), 'must be after from'],
      [hours(10), hours(0), 'must be after from'],
      [hours(0), hours(32 * 24), 'must be at most 31 days after from'],
    ] as const) {
      const e = await timeline(ORG.owner, { from, to }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('invalid_request');
      expect((e as DomainError).extras).toMatchObject({ errors: [{ path: 'query.to', message }] });
    }
    expect(GetNodeTimelineInput.safeParse({ nodeId: 'n1', from: 'yesterday' }).success).toBe(false);
  });

  it("reads the node's rows through an index on unit_intervals (node_id, …), never the whole record", async () => {
    // 40 nodes of 500 rows each: what a fleet's record looks like to the planner.
    await db().execute(sql`insert into nodes (id, name, owner_org_id, topology_gen, created_at, updated_at)
      select 'bulk-' || g, 'bulk', ${ORG.owner}, 1, now(), now() from generate_series(1, 40) g`);
    await db().execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at, open)
      select 'bulk-' || (g % 40 + 1), 'gpu-' || (g % 8), 'reserved', 'r-bulk', ${hours(-24 * 60).toISOString()}::timestamptz + g * interval '10 minutes',
        ${hours(-24 * 60).toISOString()}::timestamptz + g * interval '10 minutes' + interval '5 minutes', false from generate_series(1, 20000) g`);
    await db().execute(sql`analyze unit_intervals`);
    for (const org of [ORG.platform, ORG.managing, ORG.tenantA]) {
      const q = timelineItemsQuery(as(org), { id: 'bulk-7', ownerOrgId: ORG.owner }, hours(-24 * 7), hours(24 * 7)).toSQL();
      const client = postgres(scene().url, { max: 1, onnotice: () => {} });
      const plan = await client.unsafe(`explain (analyze, buffers) ${q.sql}`, q.params as never[]).finally(() => client.end());
      const text = plan.map((r) => String((r as Record<string, unknown>)['QUERY PLAN'])).join('\n');
      // Either of the indexes that lead with node_id (unit_intervals_node_idx or _reservation_idx): the planner picks by how much of the node's history precedes `to`.
      expect(text, org).toMatch(/Index Cond: \(+node_id = 'bulk-7'::text/);
      expect(text, org).not.toMatch(/Seq Scan on unit_intervals/);
    }
  });
});
