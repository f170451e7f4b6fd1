/**
 * Row builders shared by the demo seed and the tests. They write rows directly (no rules,
 * no audit), so a test or the seed can put the fleet into any state, including ones the
 * verbs only reach over time (expired, needs-review).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';
import {
  memberships,
  nodeTopologies,
  nodeUnits,
  nodes,
  orgs,
  reservationUnits,
  reservations,
  unitIntervals,
  users,
  vmUnits,
  vms,
  type MembershipRole,
  type TopologyUnit,
  type VmTier,
} from './schema';

export async function insertOrg(db: DbOrTx, o: { id: string; name?: string }) {
  await db.insert(orgs).values({ id: o.id, name: o.name ?? o.id });
  return o.id;
}

export async function insertUser(
  db: DbOrTx,
  u: { id: string; email: string; name: string; passwordHash: string; orgIds: string[]; membershipRole?: MembershipRole },
) {
  await db.insert(users).values({ id: u.id, email: u.email, name: u.name, passwordHash: u.passwordHash });
  // The role in every org listed (docs/product.md §2 Roles); absent: admin, as every membership from before roles.
  if (u.orgIds.length) await db.insert(memberships).values(u.orgIds.map((orgId) => ({ userId: u.id, orgId, role: u.membershipRole ?? 'admin' })));
  return u.id;
}

/** `gpu-0` … `gpu-{n-1}`, H100 80 GiB, two NVLink domains of four. */
export function gpuUnits(n = 8, model = 'H100-SXM5'): TopologyUnit[] {
  return Array.from({ length: n }, (_, i) => ({ id: `gpu-${i}`, model, memoryGiB: 80, nvlinkDomain: `nvl-${Math.floor(i / 4)}` }));
}

/**
 * A node and its units. With `topologyGen` > 1 the history holds the current unit list for
 * every generation (enough for tests that only need the number).
 */
export async function insertNode(
  db: DbOrTx,
  n: { id: string; name?: string; ownerOrgId: string; units?: TopologyUnit[]; topologyGen?: number; createdAt?: Date },
) {
  const units = n.units ?? gpuUnits();
  const gen = n.topologyGen ?? 1;
  const at = n.createdAt ?? new Date();
  await db.insert(nodes).values({ id: n.id, name: n.name ?? n.id, ownerOrgId: n.ownerOrgId, topologyGen: gen, createdAt: at, updatedAt: at });
  await db.insert(nodeUnits).values(
    units.map((u, position) => ({
      nodeId: n.id,
      unitId: u.id,
      position,
      model: u.model ?? null,
      memoryGiB: u.memoryGiB ?? null,
      nvlinkDomain: u.nvlinkDomain ?? null,
    })),
  );
  await db.insert(nodeTopologies).values(Array.from({ length: gen }, (_, i) => ({ nodeId: n.id, gen: i + 1, units, createdAt: at })));
  return n.id;
}

export async function insertReservation(
  db: DbOrTx,
  r: {
    id: string;
    nodeId: string;
    unitIds: string[];
    allowedOrgIds: string[];
    managingOrgIds?: string[];
    releasedUnitIds?: string[];
    startsAt: Date;
    endsAt?: Date;
    topologyGen?: number;
    cancelledAt?: Date;
    contractRef?: string;
    reason?: string;
    createdAt?: Date;
    /** When its released units went on the market (its start when absent). */
    releasedAt?: Date;
  },
) {
  const created = r.createdAt ?? r.startsAt;
  await db.insert(reservations).values({
    id: r.id,
    nodeId: r.nodeId,
    allowedOrgIds: [...r.allowedOrgIds].sort(),
    managingOrgIds: [...(r.managingOrgIds ?? [])].sort(),
    contractRef: r.contractRef ?? null,
    startsAt: r.startsAt,
    endsAt: r.endsAt ?? null,
    reason: r.reason ?? null,
    topologyGen: r.topologyGen ?? 1,
    cancelledAt: r.cancelledAt ?? null,
    createdAt: created,
    updatedAt: created,
  });
  const released = new Set(r.releasedUnitIds ?? []);
  await db.insert(reservationUnits).values(
    r.unitIds.map((unitId) => ({
      reservationId: r.id,
      nodeId: r.nodeId,
      unitId,
      startsAt: r.startsAt,
      endsAt: r.endsAt ?? null,
      cancelled: r.cancelledAt != null,
      released: released.has(unitId),
    })),
  );
  // Its record of intervals, as the verbs would have written it (docs/product.md §5.8).
  const cut = r.cancelledAt && (!r.endsAt || r.cancelledAt < r.endsAt) ? r.cancelledAt : (r.endsAt ?? null);
  const releasedAt = r.releasedAt ?? r.startsAt;
  const rows = (kind: 'reserved' | 'released', startsAt: Date, unitIds: string[]) =>
    !cut || cut > startsAt
      ? unitIds.map((unitId) => ({
          nodeId: r.nodeId,
          unitId,
          kind,
          reservationId: r.id,
          startsAt,
          endsAt: cut,
          open: !r.cancelledAt,
          endedBy: r.cancelledAt && r.cancelledAt === cut ? ('cancel' as const) : null,
        }))
      : [];
  const intervals = [...rows('reserved', r.startsAt, r.unitIds), ...rows('released', releasedAt, [...released])];
  if (intervals.length) await db.insert(unitIntervals).values(intervals);
  // Written against an older topology: needs-review since the next generation came.
  if (!r.cancelledAt)
    await db.execute(sql`
      insert into ${unitIntervals} (node_id, unit_id, kind, reservation_id, starts_at, ends_at)
      select ru.node_id, ru.unit_id, 'needs-review', ru.reservation_id, t.created_at, ru.ends_at
      from ${reservationUnits} ru join ${nodes} n on n.id = ru.node_id
      join ${nodeTopologies} t on t.node_id = ru.node_id and t.gen = ${r.topologyGen ?? 1} + 1
      where ru.node_id = ${r.nodeId} and ru.reservation_id = ${r.id} and n.topology_gen > ${r.topologyGen ?? 1}
        and (ru.ends_at is null or ru.ends_at > t.created_at)`);
  return r.id;
}

export async function insertVm(
  db: DbOrTx,
  v: { id: string; nodeId: string; orgId: string; tier: VmTier; unitIds: string[]; reservationId?: string; startedAt: Date; terminatedAt?: Date },
) {
  const running = !v.terminatedAt;
  await db.insert(vms).values({
    id: v.id,
    nodeId: v.nodeId,
    orgId: v.orgId,
    tier: v.tier,
    reservationId: v.reservationId ?? null,
    status: running ? 'running' : 'terminated',
    startedAt: v.startedAt,
    terminatedAt: v.terminatedAt ?? null,
    terminationReason: running ? null : 'terminated',
  });
  await db.insert(vmUnits).values(v.unitIds.map((unitId) => ({ vmId: v.id, nodeId: v.nodeId, unitId, running })));
  // Its intervals, each naming the reservation that held the unit when it started (docs/product.md §5.8).
  // Times go as text: the driver binds no Date inside a raw template.
  const startedAt = v.startedAt.toISOString();
  const terminatedAt = v.terminatedAt?.toISOString() ?? null;
  await db.execute(sql`
    insert into ${unitIntervals} (node_id, unit_id, kind, reservation_id, vm_id, starts_at, ends_at, open, ended_by)
    select vu.node_id, vu.unit_id, 'vm', h.reservation_id, vu.vm_id, ${startedAt}::timestamptz, ${terminatedAt}::timestamptz, ${running}, ${running ? null : 'terminate'}
    from ${vmUnits} vu left join lateral (
      select r.id as reservation_id from ${reservationUnits} ru join ${reservations} r on r.node_id = ru.node_id and r.id = ru.reservation_id
      where ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and r.starts_at <= ${startedAt}::timestamptz
        and (r.ends_at is null or r.ends_at > ${startedAt}::timestamptz) and (r.cancelled_at is null or r.cancelled_at > ${startedAt}::timestamptz)
      order by r.starts_at desc limit 1
    ) h on true
    where vu.vm_id = ${v.id} and (${terminatedAt}::timestamptz is null or ${terminatedAt}::timestamptz > ${startedAt}::timestamptz)`);
  return v.id;
}
