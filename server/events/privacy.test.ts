/**
 * docs/product.md §5.7 "Who receives what", checked like the authorization matrix: one history
 * that writes every event type, then every copy of every event against the catalog's table —
 * each org that stands to the subject (worked out here from the rows, not from the writer's
 * own addressing) receives exactly one copy with exactly the fields its roles may see, no other
 * org receives one, and every copy parses with the document's `Event` schema.
 */
import { gpuUnits } from '@/db/factories';
import { events, nodes, reservationUnits, reservations, vms, webhookEndpoints } from '@/db/schema';
import { asc } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../clock';
import { platformOrgId } from '../context';
import { registerNode } from '../nodes/register';
import { changeTopology } from '../nodes/topology';
import { cancelReservation } from '../reservations/cancel';
import { createReservation } from '../reservations/create';
import { reaffirm } from '../reservations/reaffirm';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import { updateReservation } from '../reservations/update';
import { cancelReclaimSchedule, rescheduleReclaim } from '../scheduled-reclaims/change';
import { createReclaimSchedule } from '../scheduled-reclaims/create';
import { sweepDueReclaims } from '../scheduled-reclaims/sweep';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor, hours } from '../testing/scene';
import { placeVm } from '../vms/place';
import { terminateVm } from '../vms/terminate';
import { Event, eventTypes, fieldsFor, type EventType, type RecipientRole } from './catalog';
import { stopEventsListeners } from './listen';
import { createWebhook } from '../webhooks/create';
import { emitDueMilestones } from './milestones';
import { writeEvents } from './write';

const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const as = (orgId: string) => ctxFor(db(), orgId, BASE);
const at = (h: number) => hours(h, BASE);
const r1 = { nodeId: 'n1', reservationId: 'r1' };

afterEach(() => {
  delete process.env.TEST_CLOCK;
});
afterAll(stopEventsListeners);

/** A history that writes every event type of the catalog. */
async function playHistory(): Promise<void> {
  await registerNode({ ctx: as(ORG.platform), input: { id: 'n2', name: 'Node 2', ownerOrgId: ORG.owner, units: gpuUnits(2) } });
  // r2: pending on n1's free gpu-6, for org_other, managed by org_managing; r3 on n2, ending soon.
  await createReservation({
    ctx: as(ORG.owner),
    input: { nodeId: 'n1', id: 'r2', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.other], managingOrgIds: [ORG.managing], startsAt: at(1), endsAt: at(3) },
  });
  await createReservation({ ctx: as(ORG.owner), input: { nodeId: 'n2', id: 'r3', reservedUnitIds: ['gpu-0'], allowedOrgIds: [ORG.audience], endsAt: at(1) } });
  await updateReservation({ ctx: as(ORG.owner), input: { nodeId: 'n1', reservationId: 'r2', contractRef: 'C-9', reason: 'paperwork' } });
  await placeVm({ ctx: as(ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
  const s1 = await createReclaimSchedule({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-3'], at: at(2), reason: 'maintenance' } });
  await rescheduleReclaim({ ctx: as(ORG.managing), input: { ...r1, scheduleId: s1.id, at: at(2.5) } });
  await cancelReclaimSchedule({ ctx: as(ORG.managing), input: { ...r1, scheduleId: s1.id } });
  await release({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-5'] } });
  await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0'], reason: 'need it' } });
  // Runs later (done), and one on r2 that lapses when r2 is cancelled.
  await createReclaimSchedule({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-2'], at: at(1) } });
  await createReclaimSchedule({ ctx: as(ORG.managing), input: { nodeId: 'n1', reservationId: 'r2', unitIds: ['gpu-6'], at: at(2) } });
  await terminateVm({ ctx: as(ORG.tenantB), input: { vmId: 'vm-od' } });
  process.env.TEST_CLOCK = '1';
  await setClockOffsetMs(db(), 1.5 * 3_600_000);
  expect(await sweepDueReclaims(db())).toBe(1);
  // r1's start passed before it was written (the factory's rows); r2 starts, r3 expires, and r2's
  // and r3's own starts are told of; nothing of r1.
  expect(await emitDueMilestones(db())).toBe(3);
  await cancelReservation({ ctx: as(ORG.owner), input: { nodeId: 'n1', reservationId: 'r2', reason: 'not needed' } });
  await changeTopology({ ctx: as(ORG.platform), input: { nodeId: 'n1', units: [...gpuUnits(8), { id: 'gpu-8', model: 'H100-SXM5', memoryGiB: 80 }] } });
  await reaffirm({ ctx: as(ORG.platform), input: { ...r1, reason: 'checked' } });
  // A tenant's endpoint that failed for 24 h, as the dispatcher tells of it (server/webhooks/dispatch.ts).
  const hook = await createWebhook({ ctx: as(ORG.tenantA), input: { url: 'https://hooks.example.com/x' } });
  await db().transaction((tx) =>
    writeEvents(tx, [
      { type: 'webhook.disabled', at: BASE, data: { webhookId: hook.id, url: hook.url, failingSince: BASE.toISOString() }, to: { orgId: ORG.tenantA } },
    ]),
  );
}

type Copy = typeof events.$inferSelect;

describe('who receives what (docs/product.md §5.7)', () => {
  it('every event type reaches exactly the orgs that stand to it, each with the fields its roles may see', async () => {
    await playHistory();
    const rows = await db().select().from(events).orderBy(asc(events.xid), asc(events.seq));
    const nodeOwner = new Map((await db().select().from(nodes)).map((n) => [n.id, n.ownerOrgId]));
    const lists = new Map((await db().select().from(reservations)).map((r) => [`${r.nodeId}/${r.id}`, r]));
    const vmOrg = new Map((await db().select().from(vms)).map((v) => [v.id, v.orgId]));
    const units = await db().select().from(reservationUnits);
    const holdsOf = (nodeId: string, unitIds: readonly string[]) =>
      [...new Set(units.filter((u) => u.nodeId === nodeId && unitIds.includes(u.unitId) && !u.cancelled).map((u) => `${u.nodeId}/${u.reservationId}`))].map(
        (k) => lists.get(k)!,
      );
    const webhookOrg = new Map((await db().select().from(webhookEndpoints)).map((w) => [w.id, w.orgId]));

    // Every type of the catalog happened.
    expect([...new Set(rows.map((r) => r.type))].sort()).toEqual([...eventTypes].sort());

    const byEvent = new Map<string, Copy[]>();
    for (const row of rows) byEvent.set(row.id, [...(byEvent.get(row.id) ?? []), row]);
    for (const copies of byEvent.values()) {
      const type = copies[0]!.type as EventType;
      // The operator receives every event but an org's own webhook's, which only that org does.
      const fullCopy = type === 'webhook.disabled' ? copies[0] : copies.find((c) => c.orgId === platformOrgId());
      expect(fullCopy, `${type}: the operator's copy`).toBeDefined();
      const full = fullCopy!.data;

      // The roles each org holds towards this event, from the rows (docs/product.md §2's columns).
      const roles = new Map<string, Set<RecipientRole>>();
      const add = (org: string | undefined, role: RecipientRole) => org && roles.set(org, (roles.get(org) ?? new Set()).add(role));
      add(platformOrgId(), 'operator');
      add(webhookOrg.get(full.webhookId as string), 'org');
      add(nodeOwner.get(full.nodeId as string), 'owner');
      // r1's lists never change in this history; r2's and r3's neither.
      const r = full.reservationId ? lists.get(`${full.nodeId as string}/${full.reservationId as string}`) : undefined;
      for (const org of r?.managingOrgIds ?? []) add(org, 'managing');
      for (const org of r?.allowedOrgIds ?? []) add(org, 'audience');
      if (type.startsWith('vm.')) add(vmOrg.get(full.vmId as string), 'tenant');
      // A VM's placing and ending also reach the managing orgs of the reservations holding its
      // units (their grids show it): in this history r1 held gpu-0 … gpu-5 throughout.
      if (type === 'vm.placed' || type === 'vm.terminated') {
        for (const h of holdsOf(full.nodeId as string, full.unitIds as string[])) for (const org of h.managingOrgIds) add(org, 'managing');
      }

      const expected = new Map<string, string[]>();
      for (const [org, held] of roles) {
        const fields = fieldsFor(type, held);
        if (fields)
          expected.set(
            org,
            Object.keys(full)
              .filter((k) => fields.has(k))
              .sort(),
          );
      }
      const got = new Map(copies.map((c) => [c.orgId, Object.keys(c.data).sort()]));
      expect(got, `${type}: recipients and their fields`).toEqual(expected);
      for (const c of copies) {
        // The same values, fewer fields; and what the document promises.
        for (const [k, v] of Object.entries(c.data)) expect(v, `${type}.${k}`).toEqual(full[k]);
        expect(() => Event.parse({ id: c.id, type: c.type, at: c.at.toISOString(), data: c.data }), type).not.toThrow();
      }
    }

    // Tenant identity and the holder stay private (§2): no copy names another org's VM, and an
    // evicted tenant never learns which reservation took its units.
    for (const row of rows) {
      if (row.orgId !== platformOrgId() && 'orgId' in row.data) expect(row.data.orgId, row.type).toBe(row.orgId);
      if (row.type === 'vm.reclaimed' && row.orgId === row.data.orgId) expect(row.data).not.toHaveProperty('reservationId');
      if (row.type === 'vm.reclaim_scheduled') expect([platformOrgId(), row.data.orgId]).toContain(row.orgId);
    }
  });

  it('an org added to managingOrgIds later receives nothing from before', async () => {
    await reclaim({ ctx: as(ORG.managing), input: { ...r1, unitIds: ['gpu-0'] } });
    await updateReservation({ ctx: as(ORG.owner), input: { ...r1, managingOrgIds: [ORG.managing, ORG.other] } });
    await release({ ctx: as(ORG.other), input: { ...r1, unitIds: ['gpu-5'] } });
    const theirs = await db().select().from(events).orderBy(asc(events.seq));
    expect(theirs.filter((r) => r.orgId === ORG.other).map((r) => r.type)).toEqual(['reservation.updated', 'reservation.released']);
  });
});
