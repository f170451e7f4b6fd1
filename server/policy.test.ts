/**
 * The policy module (server/policy.ts): the actions it offers are exactly those the verbs accept
 * (who and status), and each visibility rule's JS predicate agrees with its SQL.
 */
import { insertNode, insertReservation, insertVm } from '@/db/factories';
import { auditEvents, nodes, orgs, reservations, vms } from '@/db/schema';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { listAuditEvents } from './audit/list';
import type { Ctx } from './context';
import { DomainError } from './errors';
import type { ApiKeyScope, MembershipRole } from '@/db/schema';
import { isRest } from './operation';
import { operations } from './operations';
import {
  actionRules,
  assertMayCall,
  assertMayGrantScopes,
  assertReservationAction,
  grantableScopes,
  operationScopes,
  roleGrants,
  auditEventVisibleTo,
  auditVisibleSeqs,
  listsReservation,
  maySeeAuditEvent,
  maySeeReservation,
  maySeeRunningVm,
  nodeRelation,
  offeredNodeActions,
  offeredReservationActions,
  offeredVmActions,
  orgIdsNamedWith,
  relationTo,
  reservationActions,
  reservationListedFor,
  reservationVisibleTo,
  vmVisibleTo,
  type ReservationAction,
  type RuleKind,
} from './policy';
import { reservationStatuses } from './reservations/status';
import { cancelReservation } from './reservations/cancel';
import { reaffirm } from './reservations/reaffirm';
import { reclaim } from './reservations/reclaim';
import { release } from './reservations/release';
import { reservationRoles } from './reservations/roles';
import { updateReservation } from './reservations/update';
import { holdsNow, reservationStatus } from './reservations/view';
import { getNode } from './nodes/get';
import { listNodes } from './nodes/list';
import { getVmDetail } from './vms/detail';
import { listNodeVms, listVms } from './vms/list';
import { placeVm } from './vms/place';
import { useFreshScene } from './testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from './testing/scene';

const scene = useFreshScene();
const db = () => scene().db;

/** Beside the scene's active r1 on n1: one reservation in each other status, on node n2 (topologyGen 2). */
async function addStatuses() {
  await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, topologyGen: 2, createdAt: hours(-72) });
  const base = { nodeId: 'n2', allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], topologyGen: 2, createdAt: hours(-72) };
  await insertReservation(db(), { ...base, id: 'r-pending', unitIds: ['gpu-0'], releasedUnitIds: ['gpu-0'], startsAt: hours(10) });
  await insertReservation(db(), { ...base, id: 'r-review', unitIds: ['gpu-1'], releasedUnitIds: ['gpu-1'], startsAt: hours(-10), topologyGen: 1 });
  await insertReservation(db(), { ...base, id: 'r-expired', unitIds: ['gpu-2'], startsAt: hours(-10), endsAt: hours(-1) });
  await insertReservation(db(), { ...base, id: 'r-cancelled', unitIds: ['gpu-3'], startsAt: hours(-10), cancelledAt: hours(-5) });
  await insertReservation(db(), { ...base, id: 'r-active2', unitIds: ['gpu-4'], startsAt: hours(-10) });
}

const cases = [
  { nodeId: 'n1', reservationId: 'r1', unitId: 'gpu-5' },
  { nodeId: 'n2', reservationId: 'r-pending', unitId: 'gpu-0' },
  { nodeId: 'n2', reservationId: 'r-review', unitId: 'gpu-1' },
  { nodeId: 'n2', reservationId: 'r-expired', unitId: 'gpu-2' },
  { nodeId: 'n2', reservationId: 'r-cancelled', unitId: 'gpu-3' },
  { nodeId: 'n2', reservationId: 'r-active2', unitId: 'gpu-4' },
];
const principals = Object.values(ORG);

/** Runs a verb in a transaction that is rolled back, so every case starts from the same state. */
async function attempt(fn: (ctx: Ctx) => Promise<unknown>, orgId: string): Promise<'ok' | string> {
  const rollback = new Error('rollback');
  try {
    await db().transaction(async (tx) => {
      await fn({ ...ctxFor(db(), orgId, T0), db: tx });
      throw rollback;
    });
  } catch (e) {
    if (e === rollback) return 'ok';
    if (e instanceof DomainError) return e.code;
    throw e;
  }
  return 'ok';
}

/** Each console action as its verb, called as the console would (dry runs where there are any). */
const verbFor: Record<ReservationAction, (c: (typeof cases)[number]) => (ctx: Ctx) => Promise<unknown>> = {
  edit: (c) => (ctx) => updateReservation({ ctx, input: { nodeId: c.nodeId, reservationId: c.reservationId, contractRef: 'C-2' } }),
  cancel: (c) => (ctx) => cancelReservation({ ctx, input: { nodeId: c.nodeId, reservationId: c.reservationId } }),
  release: (c) => (ctx) => release({ ctx, input: { nodeId: c.nodeId, reservationId: c.reservationId, unitIds: [c.unitId], dryRun: true } }),
  reclaim: (c) => (ctx) => reclaim({ ctx, input: { nodeId: c.nodeId, reservationId: c.reservationId, unitIds: [c.unitId], dryRun: true } }),
  reaffirm: (c) => (ctx) => reaffirm({ ctx, input: { nodeId: c.nodeId, reservationId: c.reservationId, reason: 'checked' } }),
};

describe('offered actions are exactly what the verbs accept', () => {
  beforeEach(addStatuses);

  it('for every principal × reservation status × action', async () => {
    const rows = await db().select().from(reservations);
    const nodesById = { n1: { ownerOrgId: ORG.owner, topologyGen: 1 }, n2: { ownerOrgId: ORG.owner, topologyGen: 2 } } as const;
    let offeredCount = 0;
    for (const c of cases) {
      const r = rows.find((x) => x.id === c.reservationId && x.nodeId === c.nodeId)!;
      const node = nodesById[c.nodeId as 'n1' | 'n2'];
      const status = reservationStatus(r, node.topologyGen, T0);
      for (const orgId of principals) {
        const rel = relationTo({ orgId, actor: { kind: 'apiKey', apiKeyId: 'k' }, via: 'api' }, node, r);
        if (!maySeeReservation(rel)) continue; // 404: nothing to offer
        const offered = offeredReservationActions(rel, { id: r.id, status });
        for (const action of reservationActions) {
          const outcome = await attempt(verbFor[action](c), orgId);
          const refusedByRule = outcome === 'forbidden' || outcome.startsWith('reservation_');
          const label = `${orgId} ${action} on ${r.id} (${status}) → ${outcome}`;
          if (offered.includes(action)) {
            offeredCount++;
            expect(refusedByRule, label).toBe(false);
          } else if (!(action === 'reaffirm' && status !== 'needs-review')) {
            // Not offered means the verb refuses it by rule (re-affirming a current reservation is a no-op the console does not offer).
            expect(refusedByRule, label).toBe(true);
          }
        }
      }
    }
    expect(offeredCount).toBeGreaterThan(20);
  });

  it('matches the permissions table for an active reservation', () => {
    const active = { id: 'r', status: 'active' as const };
    const rel = (o: Partial<Record<'operator' | 'owner' | 'managing' | 'audience', boolean>>) => ({
      operator: false,
      owner: false,
      managing: false,
      audience: false,
      ...o,
    });
    expect(offeredReservationActions(rel({ operator: true }), active)).toEqual(['edit', 'cancel', 'release', 'reclaim']);
    expect(offeredReservationActions(rel({ owner: true }), active)).toEqual(['edit', 'cancel', 'release', 'reclaim']);
    expect(offeredReservationActions(rel({ managing: true }), active)).toEqual(['release', 'reclaim']);
    expect(offeredReservationActions(rel({ audience: true }), active)).toEqual([]);
    expect(offeredReservationActions(rel({ operator: true }), { id: 'r', status: 'needs-review' })).toEqual(['edit', 'cancel', 'reclaim', 'reaffirm']);
    expect(offeredReservationActions(rel({ managing: true }), { id: 'r', status: 'pending' })).toEqual(['reclaim']);
    expect(offeredReservationActions(rel({ owner: true }), { id: 'r', status: 'expired' })).toEqual([]);
  });

  it('offers node actions by the table', () => {
    const p = (orgId: string) => ({ orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const });
    expect(offeredNodeActions(nodeRelation(p(ORG.platform), { ownerOrgId: ORG.owner }))).toEqual(['createReservation', 'registerNode', 'changeTopology']);
    expect(offeredNodeActions(nodeRelation(p(ORG.owner), { ownerOrgId: ORG.owner }))).toEqual(['createReservation']);
    expect(offeredNodeActions(nodeRelation(p(ORG.managing), { ownerOrgId: ORG.owner }))).toEqual([]);
  });
});

/** The rules of action tables that are not writes, as `table.rule`: reads belong under Visibility. */
function readsIn(tables: Readonly<Record<string, Readonly<Record<string, { kind: RuleKind }>>>>): string[] {
  return Object.entries(tables).flatMap(([table, rules]) =>
    Object.entries(rules).flatMap(([name, rule]) => (rule.kind === 'write' ? [] : [`${table}.${name}`])),
  );
}

/** Every relation a principal can have to a reservation (and so to its node). */
const everyRelation = [false, true].flatMap((operator) =>
  [false, true].flatMap((owner) => [false, true].flatMap((managing) => [false, true].map((audience) => ({ operator, owner, managing, audience })))),
);

describe('actions are writes: a read is never offered as a button (docs/architecture.md "The policy module")', () => {
  it('every rule of every action table is a write', () => {
    expect(Object.keys(actionRules)).toEqual(['reservation', 'node', 'vm']);
    expect(readsIn(actionRules), 'a read rule in an action table: state it under Visibility in server/policy.ts').toEqual([]);
  });

  it('every action offered to any principal, in any status, is a write', () => {
    const offered = new Set<string>();
    for (const rel of everyRelation) {
      for (const status of reservationStatuses) for (const a of offeredReservationActions(rel, { id: 'r', status })) offered.add(`reservation.${a}`);
      for (const a of offeredNodeActions(rel)) offered.add(`node.${a}`);
    }
    for (const orgId of principals) {
      const p = { orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const };
      for (const status of ['running', 'terminated']) for (const a of offeredVmActions(p, { orgId: ORG.tenantA, status })) offered.add(`vm.${a}`);
    }
    expect([...offered].sort()).toEqual([
      'node.changeTopology',
      'node.createReservation',
      'node.registerNode',
      'reservation.cancel',
      'reservation.edit',
      'reservation.reaffirm',
      'reservation.reclaim',
      'reservation.release',
      'vm.terminate',
    ]);
    const kindOf = (key: string) => {
      const [table, name] = key.split('.') as [keyof typeof actionRules, string];
      return (actionRules[table] as Record<string, { kind: RuleKind }>)[name]!.kind;
    };
    expect([...offered].filter((k) => kindOf(k) !== 'write')).toEqual([]);
  });

  it('refuses a read rule put in an action table: the check names it, and no offered list offers it', () => {
    const read = { kind: 'read' as const, who: () => true, forbidden: () => 'never', when: () => null };
    const tables = actionRules as unknown as Record<string, Record<string, unknown>>;
    const listed = reservationActions as unknown as string[];
    tables.reservation!.peek = read;
    tables.node!.peek = { ...read, forbidden: 'never' };
    tables.vm!.peek = { ...read, forbidden: 'never' };
    listed.push('peek');
    try {
      expect(readsIn(actionRules)).toEqual(['reservation.peek', 'node.peek', 'vm.peek']);
      const all = { operator: true, owner: true, managing: true, audience: true };
      expect(offeredReservationActions(all, { id: 'r', status: 'needs-review' })).not.toContain('peek');
      expect(offeredNodeActions(all)).not.toContain('peek');
      expect(
        offeredVmActions({ orgId: ORG.platform, actor: { kind: 'apiKey', apiKeyId: 'k' }, via: 'api' }, { orgId: ORG.tenantA, status: 'running' }),
      ).not.toContain('peek');
    } finally {
      listed.pop();
      delete tables.reservation!.peek;
      delete tables.node!.peek;
      delete tables.vm!.peek;
    }
    expect(readsIn(actionRules)).toEqual([]);
  });
});

describe('each visibility rule: the JS predicate equals the SQL', () => {
  beforeEach(addStatuses);

  it('reservations: maySeeReservation ≡ reservationVisibleTo', async () => {
    await insertReservation(db(), {
      id: 'r-other',
      nodeId: 'n2',
      unitIds: ['gpu-5'],
      allowedOrgIds: [ORG.tenantA],
      managingOrgIds: [ORG.tenantB],
      startsAt: hours(-1),
      topologyGen: 2,
    });
    for (const nodeId of ['n1', 'n2']) {
      const node = { ownerOrgId: ORG.owner };
      const all = await db().select().from(reservations).where(eq(reservations.nodeId, nodeId));
      for (const orgId of principals) {
        const p = { orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const };
        const bySql = await db()
          .select({ id: reservations.id })
          .from(reservations)
          .where(and(eq(reservations.nodeId, nodeId), reservationVisibleTo(p, node)));
        const byJs = all.filter((r) => maySeeReservation(relationTo(p, node, r)));
        expect(bySql.map((r) => r.id).sort(), `${orgId} on ${nodeId}`).toEqual(byJs.map((r) => r.id).sort());
      }
    }
  });

  it('reservations across nodes: listsReservation ≡ reservationListedFor, for every role', async () => {
    // A node of another owner, with reservations naming the scene's orgs in each column.
    await insertNode(db(), { id: 'n3', ownerOrgId: ORG.other, createdAt: hours(-72) });
    await insertReservation(db(), {
      id: 'r1',
      nodeId: 'n3',
      unitIds: ['gpu-0'],
      allowedOrgIds: [ORG.tenantA, ORG.audience],
      managingOrgIds: [ORG.owner],
      startsAt: hours(-1),
    });
    await insertReservation(db(), {
      id: 'r-n3',
      nodeId: 'n3',
      unitIds: ['gpu-1'],
      allowedOrgIds: [ORG.platform],
      managingOrgIds: [ORG.tenantB, ORG.managing],
      startsAt: hours(-1),
    });
    const all = await db().select({ r: reservations, ownerOrgId: nodes.ownerOrgId }).from(reservations).innerJoin(nodes, eq(nodes.id, reservations.nodeId));
    expect(all.length).toBeGreaterThan(7);
    for (const orgId of principals) {
      const p = { orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const };
      for (const role of reservationRoles) {
        const byJs = all
          .filter(({ r, ownerOrgId }) => listsReservation(relationTo(p, { ownerOrgId }, r), role))
          .map(({ r }) => [r.nodeId, r.id] as const)
          .sort(([an, ai], [bn, bi]) => (an === bn ? (ai < bi ? -1 : 1) : an < bn ? -1 : 1));
        // Pages as the verb asks for them: every page size from 1 to all, from every cursor.
        for (const limit of [1, 2, 3, 1000]) {
          for (const after of [undefined, ...byJs]) {
            const rows = await db()
              .select({ nodeId: reservations.nodeId, id: reservations.id })
              .from(reservations)
              .where(
                and(
                  reservationListedFor(p, role, after, limit),
                  after ? sql`(${reservations.nodeId}, ${reservations.id}) > (${after[0]}, ${after[1]})` : undefined,
                ),
              )
              .orderBy(asc(reservations.nodeId), asc(reservations.id))
              .limit(limit);
            const from = after ? byJs.indexOf(after) + 1 : 0;
            expect(
              rows.map((r) => `${r.nodeId}/${r.id}`),
              `${orgId} role=${role} limit ${limit} after ${after?.join('/')}`,
            ).toEqual(byJs.slice(from, from + limit).map(([n, id]) => `${n}/${id}`));
          }
        }
      }
      // Role `any` is "see a reservation" itself: the one-node rule and the cross-node rule agree.
      const seen = all.filter(({ r, ownerOrgId }) => maySeeReservation(relationTo(p, { ownerOrgId }, r)));
      expect(all.filter(({ r, ownerOrgId }) => listsReservation(relationTo(p, { ownerOrgId }, r), 'any'))).toEqual(seen);
    }
  });

  it('audit events: maySeeAuditEvent ≡ auditVisibleSeqs (filters and limits included) ≡ auditEventVisibleTo', async () => {
    // Events by every org: on both nodes, on reservations managed by org_managing or not, org-level.
    const subjects = [
      { nodeId: 'n1', reservationId: 'r1' },
      { nodeId: 'n2', reservationId: 'r-review' },
      { nodeId: 'n2', reservationId: null },
      { nodeId: null, reservationId: null },
    ];
    let i = 0;
    for (const actorOrgId of principals) {
      for (const s of subjects) {
        await db()
          .insert(auditEvents)
          .values({
            id: `evt-${i++}`,
            at: T0,
            action: s.nodeId ? 'vm.place' : 'api_key.create',
            actorOrgId,
            actorApiKeyId: 'k',
            via: 'api',
            nodeId: s.nodeId,
            reservationId: s.reservationId,
            unitIds: [],
            details: {},
          });
      }
    }
    await insertReservation(db(), {
      id: 'r-mine',
      nodeId: 'n2',
      unitIds: ['gpu-6'],
      allowedOrgIds: [ORG.tenantA],
      managingOrgIds: [ORG.tenantB, ORG.audience],
      startsAt: hours(-1),
      topologyGen: 2,
    });
    await db()
      .insert(auditEvents)
      .values({
        id: `evt-${i++}`,
        at: T0,
        action: 'reservation.create',
        actorOrgId: ORG.owner,
        actorApiKeyId: 'k',
        via: 'api',
        nodeId: 'n2',
        reservationId: 'r-mine',
        unitIds: [],
        details: {},
      });
    const all = await db()
      .select({
        seq: auditEvents.seq,
        nodeId: auditEvents.nodeId,
        actorOrgId: auditEvents.actorOrgId,
        nodeOwnerOrgId: nodes.ownerOrgId,
        managingOrgIds: reservations.managingOrgIds,
      })
      .from(auditEvents)
      .leftJoin(nodes, eq(nodes.id, auditEvents.nodeId))
      .leftJoin(reservations, and(eq(reservations.nodeId, auditEvents.nodeId), eq(reservations.id, auditEvents.reservationId)));
    for (const orgId of principals) {
      const p = { orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const };
      for (const [where, keep, limit] of [
        [undefined, () => true, 1000],
        [eq(auditEvents.nodeId, 'n2'), (e: (typeof all)[number]) => e.nodeId === 'n2', 1000],
        [undefined, () => true, 3],
      ] as const) {
        const visible = auditVisibleSeqs(p, where, limit);
        const bySql = await db()
          .select({ seq: auditEvents.seq })
          .from(auditEvents)
          .where(visible ? and(inArray(auditEvents.seq, visible), where) : where)
          .orderBy(desc(auditEvents.seq))
          .limit(limit);
        const byJs = all
          .filter((e) => keep(e) && maySeeAuditEvent(p, e))
          .map((e) => e.seq)
          .sort((a, b) => b - a)
          .slice(0, limit);
        expect(
          bySql.map((e) => e.seq),
          `${orgId} limit ${limit}`,
        ).toEqual(byJs);
      }
      // The one-row form a list cursor is resolved under: the same rule.
      const one = await db().select({ seq: auditEvents.seq }).from(auditEvents).where(auditEventVisibleTo(p)).orderBy(desc(auditEvents.seq));
      expect(
        one.map((e) => e.seq),
        `${orgId}: auditEventVisibleTo`,
      ).toEqual(
        all
          .filter((e) => maySeeAuditEvent(p, e))
          .map((e) => e.seq)
          .sort((a, b) => b - a),
      );
    }
  });

  it('running VMs on a unit: maySeeRunningVm ≡ vmVisibleTo', async () => {
    // A spot VM on r-review's released unit and one on a free unit of n2, besides the scene's VMs on n1.
    await insertVm(db(), { id: 'vm-n2-spot', nodeId: 'n2', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-1'], startedAt: hours(-1) });
    await insertVm(db(), { id: 'vm-n2-free', nodeId: 'n2', orgId: ORG.tenantB, tier: 'on-demand', unitIds: ['gpu-7'], startedAt: hours(-1) });
    const running = await db().select().from(vms).where(eq(vms.status, 'running'));
    const rs = await db().select().from(reservations);
    const { reservationUnits, vmUnits } = await import('@/db/schema');
    const holdRows = await db().select().from(reservationUnits);
    const vmUnitRows = await db().select().from(vmUnits);
    for (const orgId of principals) {
      const p = { orgId, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const };
      const bySql = await db()
        .select({ id: vms.id })
        .from(vms)
        .where(and(eq(vms.status, 'running'), vmVisibleTo(p, T0)));
      const byJs = running.filter((vm) => {
        const units = vmUnitRows.filter((u) => u.vmId === vm.id).map((u) => u.unitId);
        const manages = holdRows.some((h) => {
          const r = rs.find((x) => x.id === h.reservationId && x.nodeId === h.nodeId)!;
          return h.nodeId === vm.nodeId && units.includes(h.unitId) && holdsNow(r, T0) && r.managingOrgIds.includes(orgId);
        });
        return maySeeRunningVm(p, { ownerOrgId: ORG.owner }, vm, manages);
      });
      expect(bySql.map((v) => v.id).sort(), orgId).toEqual(byJs.map((v) => v.id).sort());
    }
  });
});

describe('org names show where ids show (docs/product.md §9 q)', () => {
  it('names a reservation’s orgs and its node’s owner to whoever may see it, and nothing to anyone else', () => {
    const node = { ownerOrgId: ORG.owner };
    const r = { allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing] };
    const as = (orgId: string) => relationTo({ orgId, actor: { kind: 'apiKey', apiKeyId: 'k' }, via: 'api' }, node, r);
    for (const orgId of [ORG.platform, ORG.owner, ORG.managing, ORG.audience])
      expect(orgIdsNamedWith(as(orgId), r, node).sort(), orgId).toEqual([ORG.audience, ORG.managing, ORG.owner].sort());
    for (const orgId of [ORG.tenantA, ORG.other]) expect(orgIdsNamedWith(as(orgId), r, node), orgId).toEqual([]);
  });

  it('names a node’s owner, a VM’s org and an audit event’s actor exactly where the read shows that id, with one name each', async () => {
    await db().execute(sql`update ${orgs} set name = 'Name of ' || id`);
    // A tenant's own action (its actor shows to it and the operator only) and a manager's (shown to the owner too).
    await placeVm({ ctx: ctxFor(db(), ORG.tenantA), input: { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' } });
    await release({ ctx: ctxFor(db(), ORG.managing), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    const named = (ids: (string | undefined)[]) => Object.fromEntries(ids.flatMap((id) => (id ? [[id, `Name of ${id}`]] : [])));
    for (const orgId of Object.values(ORG)) {
      const ctx = ctxFor(db(), orgId, T0, 'console');
      for (const n of [...(await listNodes({ ctx, input: {} })).items, await getNode({ ctx, input: { nodeId: 'n1' } })])
        expect(n.orgNames, orgId).toEqual(named([n.ownerOrgId]));
      const listed = (await listVms({ ctx, input: {} })).items;
      for (const vm of [...listed, ...(await listNodeVms({ ctx, input: { nodeId: 'n1' } }))])
        expect(vm.orgNames, `${orgId} ${vm.id}`).toEqual(named([vm.orgId]));
      for (const vm of listed) {
        const detail = await getVmDetail({ ctx, input: { vmId: vm.id } });
        expect(detail.orgNames, `${orgId} ${vm.id}`).toEqual(named([detail.vm.orgId]));
      }
      const events = (await listAuditEvents({ ctx, input: {} })).items;
      for (const e of events) expect(e.orgNames, `${orgId} ${e.action}`).toEqual(named([e.actorOrgId]));
    }
    // Tenant identity stays private: the owner sees the tenant's placement, never its org or name.
    const owners = (await listAuditEvents({ ctx: ctxFor(db(), ORG.owner, T0, 'console'), input: { action: 'vm.place' } })).items;
    expect(owners).toHaveLength(1);
    expect(owners[0]).not.toHaveProperty('actorOrgId');
    expect(owners[0]!.orgNames).toEqual({});
    // Names are the console's: an API call is answered ids only, and asks for no names.
    const byApi = (await listAuditEvents({ ctx: ctxFor(db(), ORG.platform), input: {} })).items;
    expect(byApi.map((e) => e.orgNames)).toEqual(byApi.map(() => ({})));
  });
});

describe('roles and scopes (docs/product.md §2 Roles and scopes): one table, judged with the relation', () => {
  const user = (role: MembershipRole) => ({ orgId: ORG.owner, actor: { kind: 'user' as const, userId: 'u' }, via: 'console' as const, role });
  const key = (scopes: ApiKeyScope[]) => ({ orgId: ORG.owner, actor: { kind: 'apiKey' as const, apiKeyId: 'k' }, via: 'api' as const, scopes });

  it('a read is a query: a viewer (read only) takes no action, marking a notification read included', () => {
    const mutations = operations.filter((o) => o.kind === 'mutation');
    expect(mutations.filter((o) => o.scope === 'read').map((o) => o.id)).toEqual([]);
    expect(operations.find((o) => o.id === 'audit.markNotificationRead')!.scope).not.toBe('read');
    expect(roleGrants.viewer).toEqual(['read']);
  });

  it('read is every GET but key management; keys:manage is keys and webhooks; a member holds every scope but those', () => {
    for (const o of operations) {
      if (!isRest(o)) continue;
      const { path, method } = o.rest as { path: string; method: string };
      const keysOrHooks = path.startsWith('/v1/api-keys') || path.startsWith('/v1/webhooks');
      if (keysOrHooks) expect(o.scope, o.id).toBe('keys:manage');
      else if (method === 'GET') expect(o.scope, o.id).toBe('read');
      else expect(['reservations:write', 'vms:write'], o.id).toContain(o.scope);
    }
    expect(roleGrants.member).toEqual(['read', 'reservations:write', 'vms:write']);
    expect([...roleGrants.admin].sort()).toEqual([...operationScopes].sort());
    // members:manage is no key's: no REST operation needs it.
    expect(operations.filter((o) => o.scope === 'members:manage' && isRest(o)).map((o) => o.id)).toEqual([]);
  });

  it('assertMayCall: a key outside its scopes is insufficient_scope naming the scope; a role that lacks it is forbidden', () => {
    const refusal = (f: () => void) => {
      try {
        f();
        return null;
      } catch (e) {
        return e instanceof DomainError ? { code: e.code, scope: e.extras.scope } : e;
      }
    };
    expect(refusal(() => assertMayCall(key(['read']), 'reservations:write'))).toEqual({ code: 'insufficient_scope', scope: 'reservations:write' });
    expect(refusal(() => assertMayCall(key(['read']), 'read'))).toBeNull();
    expect(refusal(() => assertMayCall(user('viewer'), 'vms:write'))).toEqual({ code: 'forbidden', scope: undefined });
    expect(refusal(() => assertMayCall(user('member'), 'keys:manage'))).toEqual({ code: 'forbidden', scope: undefined });
    expect(refusal(() => assertMayCall(user('member'), 'reservations:write'))).toBeNull();
    expect(refusal(() => assertMayCall(user('admin'), 'members:manage'))).toBeNull();
    // The platform's jobs: no role, no scopes, everything.
    expect(refusal(() => assertMayCall({ orgId: ORG.platform, actor: { kind: 'system', job: 'seed' }, via: 'schedule' }, 'members:manage'))).toBeNull();
  });

  it('no key creates a key with a scope it lacks; an admin gives any', () => {
    expect(grantableScopes(key(['read', 'keys:manage']))).toEqual(['read', 'keys:manage']);
    expect(() => assertMayGrantScopes(key(['read', 'keys:manage']), ['vms:write'])).toThrow(DomainError);
    expect(grantableScopes(user('admin'))).toEqual(['read', 'reservations:write', 'vms:write', 'keys:manage']);
  });

  it('offers what the relation and the role both allow: a viewer nothing, a member what an admin is offered', () => {
    const node = { ownerOrgId: ORG.owner };
    const r = { allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing] };
    const active = { id: 'r', status: 'active' as const };
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const p = { ...user(role), orgId: ORG.platform };
      const want = role === 'viewer' ? [] : ['edit', 'cancel', 'release', 'reclaim'];
      expect(offeredReservationActions(relationTo(p, node, r), active), role).toEqual(want);
      expect(offeredNodeActions(nodeRelation(p, node)), role).toEqual(role === 'viewer' ? [] : ['createReservation', 'registerNode', 'changeTopology']);
      expect(offeredVmActions(p, { orgId: ORG.tenantA, status: 'running' }), role).toEqual(role === 'viewer' ? [] : ['terminate']);
    }
    // A key holding read only is offered nothing either; the verb refuses as the transport would.
    const readKey = { ...key(['read']), orgId: ORG.managing };
    expect(offeredReservationActions(relationTo(readKey, node, r), active)).toEqual([]);
    expect(() => assertReservationAction('reclaim', relationTo(readKey, node, r), active)).toThrow(DomainError);
  });
});
