/**
 * docs/product.md §7 "Every mutating transaction touches one node's rows" — the one rule the
 * Citus plan (docs/scaling.md) rests on: node id is the shard key, so a transaction that touches
 * one node's rows is a single-shard transaction, routed whole to one worker.
 *
 * How: a log installed in this file's database (server/testing/touch-log.ts) records, per
 * transaction, every row written to any table and every row lock held on a node's rows at commit.
 * Then a workload runs every mutating operation declared (server/operations.ts), each job that
 * writes (the reclaim sweep, a writer settling due reclaims first, the milestones, the webhook
 * dispatcher, the event purge), the sign-in writes, REST writes under `Idempotency-Key`, and a
 * small seeded storm of concurrent placements, terminations, releases and reclaims on two nodes.
 * Every transaction is checked: the node rows it wrote or locked name at most one node — except
 * the named exceptions below, which docs/scaling.md lists and justifies — and what else it
 * wrote is placed with its node on Citus or says how it travels (db/placement.ts). The checker
 * is shown to catch a deliberate two-node write, a lock on a second node, a lock taken under a
 * savepoint, and an org's table written beside a node's. Coverage fails for a mutating operation the workload did not run, a table nothing
 * wrote, or a table db/placement.ts and docs/scaling.md do not place.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { POST as placeRoute } from '@/app/v1/vms/route';
import { POST as reclaimRoute } from '@/app/v1/nodes/[nodeId]/reservations/[id]/reclaim/route';
import type { Db } from '@/db/client';
import { gpuUnits, insertUser } from '@/db/factories';
import { acceptInvite } from './members/accept';
import { placementOf, tablePlacement } from '@/db/placement';
import { events, idempotencyRecords, notifications, vms, webhookAttempts, webhookEndpoints } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { hashPassword } from './auth/password';
import { countConsoleRequests } from './auth/rate-limit';
import { revokeUserDevices } from './auth/known-devices';
import { revokeSession, revokeUserSessions, startSession } from './auth/sessions';
import { signInWithPassword } from './auth/sign-in';
import { setClockOffsetMs } from './clock';
import type { Ctx } from './context';
import { DomainError } from './errors';
import { stopEventsListeners } from './events/listen';
import { emitDueMilestones, purgeOldEvents } from './events/milestones';
import { operationById, type operationGroups, operations, type OperationId } from './operations';
import { reclaim } from './reservations/reclaim';
import { release } from './reservations/release';
import { sweepDueReclaims } from './scheduled-reclaims/sweep';
import { callRoute, issueKeys } from './testing/rest';
import { buildScene, ctxFor, hours, ORG } from './testing/scene';
import { findTables, installTouchLog, lastTouchId, readTouches, type NodeKeyedTable, type Touch } from './testing/touch-log';
import { placeVm } from './vms/place';
import { terminateVm } from './vms/terminate';
import { dispatchWebhooks } from './webhooks/dispatch';

/**
 * The writers allowed to touch several nodes' rows in one transaction, each named and justified
 * in docs/scaling.md "Exceptions": maintenance that deletes by age across the fleet. On Citus each
 * runs as one multi-shard DELETE (every shard in parallel, committed together), or shard by shard;
 * nothing reads their rows, so no request waits on them.
 */
const TWO_NODE_EXCEPTIONS: Record<string, string> = {
  'job:purgeOldEvents': 'deletes events past the 30-day retention, whichever node they tell of',
};

/**
 * Tables no product transaction writes: the seed and the tests make their rows (orgs and users
 * have no verb yet; the test clock is set by tests only). Memberships have theirs (the members
 * verbs, which the workload runs).
 */
const WRITTEN_ONLY_BY_SEED_AND_TESTS = ['orgs', 'test_clock', 'users'];

/** A labelled run of the workload: the touches logged while it ran are its own. */
type Step = { label: string; from: number; to: number };
/** What one transaction touched: its label, the nodes of the node rows it wrote or locked, and the tables it wrote. */
type TxReport = { xid: string; label: string; nodes: string[]; written: string[]; locked: string[]; nodelessNodeRows: string[] };

const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (h: number) => hours(h, BASE);
let tdb: TestDatabase;
let nodeTables: NodeKeyedTable[];
const steps: Step[] = [];
let reports: TxReport[] = [];
const db = (): Db => tdb.db;
const as = (orgId: string, now: Date = BASE, via: Ctx['via'] = 'api'): Ctx => ctxFor(db(), orgId, now, via);

/** Runs `fn` as one labelled step of the workload (steps run one after another; a step may hold concurrent transactions). */
async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const from = await lastTouchId(db());
  const result = await fn();
  steps.push({ label, from, to: await lastTouchId(db()) });
  return result;
}

/** Test setup writes (factories, the test clock, aged rows): logged, never judged. */
const fixture = <T>(what: string, fn: () => Promise<T>) => step(`fixture:${what}`, fn);

/** The declaration of an operation id, with its own input and output types (server/operations.ts). */
type Declared<Id extends OperationId> = Id extends `${infer G extends keyof typeof operationGroups}.${infer P}`
  ? P extends keyof (typeof operationGroups)[G]
    ? (typeof operationGroups)[G][P]
    : never
  : never;
type InputOf<Op> = Op extends { input: infer I extends z.ZodType } ? z.input<I> : never;
type OutputOf<Op> = Op extends { verb: (args: never) => Promise<infer O> } ? O : never;

/**
 * Runs a declared operation as both transports do — its input schema, then its verb — labelled
 * with the operation's id; only mutations, which are what the rule is about.
 */
async function call<Id extends OperationId>(
  id: Id & (Declared<Id> extends { kind: 'mutation' } ? unknown : never),
  ctx: Ctx,
  input: InputOf<Declared<Id>>,
): Promise<OutputOf<Declared<Id>>> {
  const op = operationById(id);
  return step(id, () => op.verb({ ctx, input: op.input.parse(input) }) as Promise<OutputOf<Declared<Id>>>);
}

/** A verb that refuses (a 409 after settling, a lost race in the storm): the refusal is the outcome. */
async function refused(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
  }
}

/** Groups the log by transaction (docs/product.md §7). */
function reportTransactions(touches: readonly Touch[], ran: readonly Step[]): TxReport[] {
  const labelOf = (id: number) => ran.find((s) => id > s.from && id <= s.to)?.label ?? 'unlabelled';
  const byXid = new Map<string, Touch[]>();
  for (const t of touches) byXid.set(t.xid, [...(byXid.get(t.xid) ?? []), t]);
  const nodeKeyed = new Set(nodeTables.map((t) => t.table));
  return [...byXid].map(([xid, ts]) => ({
    xid,
    label: labelOf(ts[0]!.id),
    nodes: [...new Set(ts.filter((t) => nodeKeyed.has(t.table) && t.nodeId !== null).map((t) => t.nodeId!))].sort(),
    written: [...new Set(ts.filter((t) => t.op !== 'LOCK').map((t) => t.table))].sort(),
    locked: [...new Set(ts.filter((t) => t.op === 'LOCK').map((t) => `${t.table}:${t.nodeId}`))].sort(),
    nodelessNodeRows: [...new Set(ts.filter((t) => nodeKeyed.has(t.table) && t.nodeId === null).map((t) => t.table))].sort(),
  }));
}

/**
 * What breaks the rule (docs/scaling.md "The one rule, and its test"), one line each: a
 * transaction whose node rows name two nodes (unless its writer is a named exception); a node's
 * transaction that writes a table not placed, or placed elsewhere without saying how its write
 * travels there; a node's transaction that writes a row of a node table naming no node.
 */
function breaches(rs: readonly TxReport[]): string[] {
  const out: string[] = [];
  for (const r of rs) {
    if (r.label.startsWith('fixture:')) continue;
    const what = `${r.label} (transaction ${r.xid}): wrote ${r.written.join(', ')}; locked ${r.locked.join(', ') || 'nothing'}`;
    if (r.nodes.length > 1 && !(r.label in TWO_NODE_EXCEPTIONS)) out.push(`two nodes ${r.nodes.join(' + ')} — ${what}`);
    if (r.nodes.length === 0) continue;
    for (const table of r.written) {
      const p = placementOf(table);
      if (!p || (p.kind !== 'node' && !(p.kind === 'org' && p.inNodeTransactions)))
        out.push(`${table} (${p?.kind ?? 'not placed'}) beside node ${r.nodes.join(' + ')} — ${what}`);
    }
    for (const table of r.nodelessNodeRows) out.push(`a ${table} row of no node beside node ${r.nodes.join(' + ')} — ${what}`);
  }
  return out;
}

/** A loopback webhook receiver: 200, or 500 for paths ending in `/failing`. */
const receiver = { server: null as http.Server | null, url: '' };

/** The workload (see the file comment), in order; every refusal it meets is one it expects. */
async function runWorkload(): Promise<void> {
  // n1 (the scene): r1 active on gpu-0 … gpu-5, gpu-0 … gpu-3 released; spot VMs on gpu-0+1 and gpu-2, reserved on gpu-4, on-demand on gpu-7.
  await call('nodes.register', as(ORG.platform), { id: 'n2', name: 'Node 2', ownerOrgId: ORG.owner, units: gpuUnits(4) });
  const r2 = { nodeId: 'n2', reservationId: 'r2' };
  const r1 = { nodeId: 'n1', reservationId: 'r1' };
  await call('reservations.create', as(ORG.owner), {
    nodeId: 'n2',
    id: 'r2',
    reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2'],
    allowedOrgIds: [ORG.audience],
    managingOrgIds: [ORG.managing],
    endsAt: at(48).toISOString(),
  });
  await call('reservations.create', as(ORG.owner), {
    nodeId: 'n1',
    id: 'r3',
    reservedUnitIds: ['gpu-6'],
    allowedOrgIds: [ORG.other],
    startsAt: at(1).toISOString(),
    endsAt: at(3).toISOString(),
  });
  await call('reservations.update', as(ORG.owner), { ...r2, contractRef: 'C-2', endsAt: at(72).toISOString(), reason: 'renewed' });
  await call('reservations.release', as(ORG.managing), { ...r2, unitIds: ['gpu-0', 'gpu-1'] });
  const spotN2 = await call('vms.place', as(ORG.tenantA), { nodeId: 'n2', unitIds: ['gpu-0'], tier: 'spot' });
  await call('vms.place', as(ORG.audience), { nodeId: 'n2', unitIds: ['gpu-2'], tier: 'reserved', reservationId: 'r2' });
  await call('vms.place', as(ORG.tenantB), { nodeId: 'n2', unitIds: ['gpu-3'], tier: 'on-demand' });
  // A spot VM on r1's released gpu-3, so that a schedule there tells its tenant (a notification).
  await call('vms.place', as(ORG.tenantA), { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' });
  const s1 = await call('scheduledReclaims.create', as(ORG.managing), {
    ...r1,
    unitIds: ['gpu-3'],
    at: at(2).toISOString(),
    reason: 'soon',
  });
  await call('scheduledReclaims.reschedule', as(ORG.managing), { ...r1, scheduleId: s1.id, at: at(2.5).toISOString() });
  await call('scheduledReclaims.cancel', as(ORG.managing), { ...r1, scheduleId: s1.id });
  // Reclaims that evict (notifications to the tenants), on each node.
  await call('reservations.reclaim', as(ORG.managing), { ...r1, unitIds: ['gpu-0'], reason: 'need it' });
  await call('reservations.reclaim', as(ORG.managing), { ...r2, unitIds: ['gpu-0'], expectedTerminate: [spotN2.id] });
  await call('vms.terminate', as(ORG.tenantB), { vmId: 'vm-od' });
  // Due at +1 h: n1's runs in the sweep; n2's is run by the next writer on n2, which settles it first.
  await call('scheduledReclaims.create', as(ORG.managing), { ...r1, unitIds: ['gpu-2'], at: at(1).toISOString() });
  await call('scheduledReclaims.create', as(ORG.managing), { ...r2, unitIds: ['gpu-1'], at: at(1).toISOString() });
  // The writer finds n2's reclaim due, commits it on its own, then is refused: gpu-1 is no longer on the market.
  await step('job:settle-first', () => refused(placeVm({ ctx: as(ORG.tenantB, at(1.5)), input: { nodeId: 'n2', unitIds: ['gpu-1'], tier: 'spot' } })));
  process.env.TEST_CLOCK = '1';
  await fixture('test clock +1.5 h', () => setClockOffsetMs(db(), 1.5 * 3_600_000));
  expect(await step('job:sweepDueReclaims', () => sweepDueReclaims(db()))).toBe(1);
  expect(await step('job:emitDueMilestones', () => emitDueMilestones(db()))).toBeGreaterThan(0);
  const later = at(2);
  await call('reservations.cancel', as(ORG.owner, later), { nodeId: 'n1', reservationId: 'r3', reason: 'not needed' });
  await call('nodes.changeTopology', as(ORG.platform, later), { nodeId: 'n1', units: [...gpuUnits(8), { id: 'gpu-8', memoryGiB: 80 }] });
  await call('reservations.reaffirm', as(ORG.platform, later), { ...r1, reason: 'checked' });

  const [evicted] = await db()
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.orgId, ORG.tenantA), eq(notifications.kind, 'vm.reclaimed')));
  await call('audit.markNotificationRead', as(ORG.tenantA, later), { notificationId: evicted!.id });

  const key = await call('apiKeys.create', as(ORG.owner, later), { name: 'ci' });
  await call('apiKeys.revoke', as(ORG.owner, later), { apiKeyId: key.id });

  const hook = await call('webhooks.create', as(ORG.tenantA, later), { url: receiver.url });
  await call('webhooks.update', as(ORG.tenantA, later), { webhookId: hook.id, description: 'spot alerts' });
  await call('webhooks.rotateSecret', as(ORG.tenantA, later), { webhookId: hook.id });
  // An event for the endpoint, which follows its org's feed from its creation on.
  await call('vms.place', as(ORG.tenantA, later), { nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' });
  const [told] = await db().select({ id: events.id }).from(events).where(eq(events.orgId, ORG.tenantA)).limit(1);
  await call('webhooks.redeliver', as(ORG.tenantA, later), { webhookId: hook.id, eventId: told!.id });
  // An endpoint failing for 24 h already, so that this pass disables it (a notification and an event of no node).
  const failing = await call('webhooks.create', as(ORG.tenantB, later), { url: `${receiver.url}/failing` });
  await fixture('an endpoint failing for 25 h', () =>
    db()
      .update(webhookEndpoints)
      .set({ cursorXid: 0, cursorSeq: 0, attempts: 9, failingSince: hours(-25, new Date()) })
      .where(eq(webhookEndpoints.id, failing.id)),
  );
  expect(await step('job:dispatchWebhooks', () => dispatchWebhooks(db(), 'instance-a'))).toBeGreaterThan(0);
  await call('webhooks.delete', as(ORG.tenantA, later), { webhookId: hook.id });

  await runSignIns();
  await runRest();
  await runStorm(at(3));

  // Events and delivery logs past the retention, of both nodes: the purge takes them in one statement.
  const old = hours(-24 * 40, new Date());
  await fixture('events past the retention', async () => {
    await db()
      .insert(events)
      .values(['n1', 'n2'].map((nodeId, i) => ({ id: `ev_old_${i}`, orgId: ORG.platform, type: 'vm.placed', at: old, nodeId, data: {} })));
    await db().insert(webhookAttempts).values({ endpointId: failing.id, eventId: 'ev_old_0', eventType: 'vm.placed', at: old, latencyMs: 1 });
  });
  expect(await step('job:purgeOldEvents', () => purgeOldEvents(db()))).toBe(2);
}

/** Console sign-in and its lockout (docs/product.md §9.3): every sign-in write, and the operator's unlock. */
async function runSignIns(): Promise<void> {
  const password = 'correct horse';
  await fixture('a console user', async () =>
    insertUser(db(), { id: 'u_ann', email: 'ann@x.example', name: 'Ann', passwordHash: await hashPassword(password), orgIds: [ORG.owner] }),
  );
  const signIn = (pw: string) => signInWithPassword({ db: db(), input: { email: 'ann@x.example', password: pw, address: null, deviceIds: [] } });
  expect(await step('auth:signIn', () => signIn(password))).toMatchObject({ outcome: 'signed_in' });
  const session = await step('auth:startSession', () => startSession(db(), 'u_ann'));
  await step('auth:countConsoleRequests', () => countConsoleRequests(db(), 'u_ann', 2));
  await step('auth:revokeSession', () => revokeSession(db(), session));
  await step('auth:startSession', () => startSession(db(), 'u_ann'));
  await step('auth:revokeUserSessions', () => revokeUserSessions(db(), 'u_ann'));
  await step('auth:revokeUserDevices', () => revokeUserDevices(db(), 'u_ann'));
  // Two failures lock the account: a sign_in.lockout event and the operator's notification.
  process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '2';
  try {
    for (let i = 0; i < 2; i++) expect(await step('auth:signIn', () => signIn('wrong'))).toMatchObject({ outcome: 'invalid' });
  } finally {
    delete process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT;
  }
  // The lockout runs on PostgreSQL's clock: the operator unlocks at the real time.
  const unlocked = await call('signIns.unlock', as(ORG.platform, new Date(), 'console'), { userId: 'u_ann' });
  expect(unlocked.unlocked).toEqual(['account']);

  // Members (docs/product.md §2 Members): the owner org's admins invite, the invitation is
  // accepted, withdrawn, a role changed, a member removed — org rows only, no node.
  const admin = as(ORG.owner, new Date(), 'console');
  const invited = await call('members.invite', admin, { role: 'viewer' });
  await fixture('a second console user', async () => insertUser(db(), { id: 'u_bob', email: 'bob@x.example', name: 'Bob', passwordHash: 'x', orgIds: [] }));
  expect(await step('members:acceptInvite', () => acceptInvite(db(), { userId: 'u_bob', secret: invited.path.split('/').at(-1)! }))).toMatchObject({
    outcome: 'joined',
  });
  const another = await call('members.invite', admin, { role: 'member' });
  await call('members.revokeInvite', admin, { inviteId: another.id });
  await call('members.changeRole', admin, { userId: 'u_bob', role: 'member' });
  await call('members.remove', admin, { userId: 'u_bob' });
}

/** Writes over REST with `Idempotency-Key` (docs/product.md §5 Idempotency): the stored answer, the purge of expired ones, authentication. */
async function runRest(): Promise<void> {
  const keys = await fixture('API keys', () => issueKeys(db(), [ORG.managing, ORG.tenantB]));
  const reclaimPath = { method: 'POST', path: '/v1/nodes/n1/reservations/r1/reclaim', params: { nodeId: 'n1', id: 'r1' }, key: keys[ORG.managing] };
  const preview = await step('rest:reclaim dry run', () =>
    callRoute(reclaimRoute, { ...reclaimPath, body: { unitIds: ['gpu-3'], dryRun: true }, headers: { 'idempotency-key': 'preview-1' } }),
  );
  expect(preview.status).toBe(200);
  // Expired records of other orgs: the next stored answer purges them, in its node's transaction.
  await fixture('expired idempotency records of other orgs', () =>
    db()
      .insert(idempotencyRecords)
      .values(
        [ORG.tenantA, ORG.audience].map((orgId, i) => ({
          orgId,
          method: 'POST',
          path: '/v1/vms',
          key: `old-${i}`,
          requestHash: 'h',
          status: 201,
          body: '{}',
          createdAt: hours(-30, new Date()),
        })),
      ),
  );
  const done = await step('rest:reclaim', () =>
    callRoute(reclaimRoute, { ...reclaimPath, body: { unitIds: ['gpu-3'], reason: 'rest' }, headers: { 'idempotency-key': 'reclaim-1' } }),
  );
  expect(done.json).toMatchObject({ terminated: [expect.any(String)] });
  const placed = await step('rest:place', () =>
    callRoute(placeRoute, {
      method: 'POST',
      path: '/v1/vms',
      key: keys[ORG.tenantB],
      body: { nodeId: 'n1', unitIds: ['gpu-1'], tier: 'spot' },
      headers: { 'idempotency-key': 'place-1' },
    }),
  );
  expect(placed.status).toBe(201);
  expect((await db().select().from(idempotencyRecords)).map((r) => r.key).sort()).toEqual(['place-1', 'preview-1', 'reclaim-1']);
}

/** A deterministic pseudo-random sequence (mulberry32), so the storm plays the same choices every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A small storm (docs/product.md §8 R1's mix): 4 clients at once, 12 calls each, placing spot VMs,
 * terminating their own, releasing and reclaiming, on both nodes. Refusals are part of it (a lost
 * race is a 409); every transaction that commits is judged like the others.
 */
async function runStorm(now: Date): Promise<void> {
  const random = seeded(26);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const plan = Array.from({ length: 4 }, () =>
    Array.from({ length: 12 }, () => ({
      kind: pick(['place', 'place', 'terminate', 'release', 'reclaim'] as const),
      node: pick(['n1', 'n2']),
      unit: pick([0, 1, 2, 3]),
    })),
  );
  const tenants = [ORG.tenantA, ORG.tenantB, ORG.other, ORG.tenantA];
  await step('storm', () =>
    Promise.all(
      plan.map(async (calls, client) => {
        const tenant = tenants[client]!;
        for (const c of calls) {
          const unitIds = [`gpu-${c.unit}`];
          const r = { nodeId: c.node, reservationId: c.node === 'n1' ? 'r1' : 'r2' };
          if (c.kind === 'place') await refused(placeVm({ ctx: as(tenant, now), input: { nodeId: c.node, unitIds, tier: 'spot' } }));
          else if (c.kind === 'release') await refused(release({ ctx: as(ORG.managing, now), input: { ...r, unitIds } }));
          else if (c.kind === 'reclaim') await refused(reclaim({ ctx: as(ORG.managing, now), input: { ...r, unitIds } }));
          else {
            const [mine] = await db()
              .select({ id: vms.id })
              .from(vms)
              .where(and(eq(vms.orgId, tenant), eq(vms.nodeId, c.node), eq(vms.status, 'running')));
            if (mine) await refused(terminateVm({ ctx: as(tenant, now), input: { vmId: mine.id } }));
          }
        }
      }),
    ),
  );
}

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
  receiver.server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url?.endsWith('/failing') ? 500 : 200).end());
  });
  await new Promise<void>((r) => receiver.server!.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;

  tdb = await createTestDatabase();
  await buildScene(db(), BASE);
  nodeTables = await installTouchLog(db());
  await runWorkload();
  reports = reportTransactions(await readTouches(db(), 0), steps);
}, 60_000);

afterAll(async () => {
  delete process.env.TEST_CLOCK;
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  await stopEventsListeners();
  await new Promise((r) => receiver.server?.close(r));
  await tdb?.close();
});

describe('every mutating transaction touches the rows of at most one node (docs/product.md §7, docs/scaling.md)', () => {
  it('holds for every transaction the workload committed, but the named exceptions', () => {
    expect(reports.filter((r) => r.label === 'unlabelled')).toEqual([]);
    expect(breaches(reports)).toEqual([]);
    // Each exception ran, and is still one: an allowance nothing needs any more is taken away.
    for (const label of Object.keys(TWO_NODE_EXCEPTIONS)) {
      expect(
        reports.some((r) => r.label === label && r.nodes.length > 1),
        `${label} still touches several nodes`,
      ).toBe(true);
    }
    // Each allowance of a write beside a node's is still used: one nothing needs is taken away.
    const beside = new Set(reports.filter((r) => r.nodes.length === 1).flatMap((r) => r.written));
    for (const [table, p] of Object.entries(tablePlacement)) {
      if (p.kind === 'org' && 'inNodeTransactions' in p) expect(beside.has(table), `${table} is written in a node's transaction`).toBe(true);
    }
    // A REST write stores its answer, and purges other orgs' expired ones, in its node's transaction.
    expect(reports.find((r) => r.label === 'rest:reclaim' && r.nodes.length === 1)?.written).toEqual(
      expect.arrayContaining(['idempotency_records', 'notifications']),
    );
    // The storm committed work on both nodes.
    const storm = reports.filter((r) => r.label === 'storm' && r.written.length > 0);
    expect(new Set(storm.flatMap((r) => r.nodes))).toEqual(new Set(['n1', 'n2']));
  });

  it('the workload ran every mutating operation declared, each committing a write', () => {
    const wrote = new Set(reports.filter((r) => r.written.length > 0).map((r) => r.label));
    const mutations = operations.filter((o) => o.kind === 'mutation').map((o) => o.id);
    expect(mutations.length).toBeGreaterThan(20);
    expect(mutations.filter((id) => !wrote.has(id))).toEqual([]);
  });

  it('every table is placed (db/placement.ts, docs/scaling.md), a node table with its node, and written by the workload', async () => {
    const tables = await findTables(db());
    expect(tables.filter((t) => !placementOf(t))).toEqual([]);
    expect(Object.keys(tablePlacement).filter((t) => !tables.includes(t))).toEqual([]);
    for (const t of nodeTables) expect(placementOf(t.table), t.table).toEqual(expect.objectContaining({ kind: 'node', column: t.column }));
    const columns = await db().execute<{ table: string; column: string }>(
      sql`select table_name as "table", column_name as "column" from information_schema.columns where table_schema = 'public'`,
    );
    for (const [table, p] of Object.entries(tablePlacement)) {
      if (p.kind === 'node' || (p.kind === 'org' && !('added' in p))) {
        expect(
          columns.some((c) => c.table === table && c.column === p.column),
          `${table}.${p.column}`,
        ).toBe(true);
      }
    }
    const written = new Set(reports.filter((r) => !r.label.startsWith('fixture:')).flatMap((r) => r.written));
    expect(tables.filter((t) => !written.has(t) && !WRITTEN_ONLY_BY_SEED_AND_TESTS.includes(t))).toEqual([]);

    // docs/scaling.md's table names each table with the same placement.
    const doc = readFileSync(path.join(import.meta.dirname, '..', 'docs', 'scaling.md'), 'utf8');
    const rows = new Map([...doc.matchAll(/^\| `([a-z_]+)` +\| (node|org|reference|coordinator) /gm)].map((m) => [m[1]!, m[2]!]));
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(tablePlacement).map(([t, p]) => [t, p.kind])));
    for (const label of Object.keys(TWO_NODE_EXCEPTIONS)) expect(doc).toContain(label.replace('job:', ''));
  });

  it("the checker catches a transaction that writes two nodes, locks a second one (under a savepoint too), or writes an org's table beside a node", async () => {
    const from = await lastTouchId(db());
    await db().transaction(async (tx) => {
      await tx.execute(sql`update nodes set name = name where id in ('n1', 'n2')`);
    });
    const wrote = await lastTouchId(db());
    await db().transaction(async (tx) => {
      await tx.execute(sql`select 1 from nodes where id = 'n2' for no key update`);
      await tx.execute(sql`update node_units set model = model where node_id = 'n1' and unit_id = 'gpu-0'`);
    });
    const locked = await lastTouchId(db());
    await db().transaction(async (tx) => {
      await tx.execute(sql`update node_units set model = model where node_id = 'n1' and unit_id = 'gpu-0'`);
      await tx.transaction(async (sp) => {
        await sp.execute(sql`select 1 from vms where node_id = 'n2' for update`);
      });
    });
    const nested = await lastTouchId(db());
    await db().transaction(async (tx) => {
      await tx.execute(sql`update node_units set model = model where node_id = 'n1' and unit_id = 'gpu-0'`);
      await tx.execute(sql`update webhook_endpoints set description = description`);
    });
    const beside = await lastTouchId(db());
    const caught = breaches(
      reportTransactions(await readTouches(db(), from), [
        { label: 'two nodes written', from, to: wrote },
        { label: 'a second node locked', from: wrote, to: locked },
        { label: 'locked under a savepoint', from: locked, to: nested },
        { label: "an org's table beside a node", from: nested, to: beside },
      ]),
    );
    expect(caught.map((line) => line.split(' — ')[0])).toEqual([
      'two nodes n1 + n2',
      'two nodes n1 + n2',
      'two nodes n1 + n2',
      'webhook_endpoints (org) beside node n1',
    ]);
    // A transaction that rolls back wrote nothing, and is not judged.
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`update nodes set name = name where id in ('n1', 'n2')`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await readTouches(db(), beside)).toEqual([]);
  });
});
