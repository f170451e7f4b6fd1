/// <reference types="vite/client" />
/**
 * docs/product.md §8 R4: every route × every kind of principal matches §2, over REST and tRPC alike.
 *
 * The cases are generated from two tables so that nothing is missed:
 * - `expectations`: §2's permissions table, one row per action, one column per principal;
 * - `routes`: every REST route (its route-table operationId) and every tRPC procedure, each mapped to the
 *   §2 action it exercises, with a body that is valid and would succeed for an allowed
 *   principal (so the only reason to fail is permission).
 * Coverage tests fail when a route-table entry (server/rest/routes.ts) has no route file or
 * no row, when a route file has no entry, or when a tRPC procedure has no row.
 *
 * A case whose expectation is a success of a mutating call runs on a fresh database. Every
 * other case runs on a shared scene, which must be left exactly as it was (a denied call
 * writes nothing, docs/product.md §5's check order puts 401/403/404 before any change); a call that did
 * write fails and drops the shared scene, so one product bug cannot cascade into the next case.
 */
import type { Db } from '@/db/client';
import { gpuUnits, insertNode, insertUser, insertVm } from '@/db/factories';
import {
  apiKeys,
  apiKeyScopes,
  auditEvents,
  events,
  nodeUnits,
  nodes,
  notifications,
  orgAuditActions,
  reclaimScheduleUnits,
  reclaimSchedules,
  reservationUnits,
  reservations,
  signInThrottles,
  vmUnits,
  vms,
  webhookAttempts,
  webhookEndpoints,
  webhookSecrets,
  memberInvites,
  memberships,
  type ApiKeyScope,
  type MembershipRole,
} from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { TRPCError } from '@trpc/server';
import { count, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './api-keys/create';
import { hashApiKeySecret, issueApiKey } from './api-keys/internal';
import { revokeApiKey } from './api-keys/revoke';
import type { ApiKeyView, CreatedApiKeyView } from './api-keys/view';
import type { AuditEventView } from './audit/view';
import type { EventPage } from './events/feed';
import type { MembersView } from './members/view';
import { newWebhookSecret } from './webhooks/internal';
import type { WebhookAttemptView, WebhookView, WebhookWithSecretView } from './webhooks/view';
import { systemCtx, type Principal } from './context';
import { registerNode } from './nodes/register';
import { changeTopology } from './nodes/topology';
import type { NodeView } from './nodes/view';
import type { NotificationView } from './notifications/view';
import { reclaim } from './reservations/reclaim';
import { updateReservation } from './reservations/update';
import type { Reservation } from './reservations/view';
import type { UnitDetailView } from './nodes/get-unit';
import { isRest } from './operation';
import { operationById, operations, type OperationId } from './operations';
import { roleGrants, type OperationScope } from './policy';
import { restRoutes } from './rest/routes';
import { callRoute, issueKeys } from './testing/rest';
import { ORG, buildScene, ctxFor } from './testing/scene';
import { appRouter, createCaller } from './trpc/root';
import { placeVm } from './vms/place';
import type { VmView } from './vms/view';

// ── Principals ──────────────────────────────────────────────────────────────────────────

/** §2's columns, in its order. */
const columns = ['operator', 'owner', 'managing', 'audience', 'other', 'anonymous'] as const;
type Column = (typeof columns)[number];
type SignedIn = Exclude<Column, 'anonymous'>;
/** A revoked API key is one more kind of principal, REST only (tRPC has console sessions). */
type Kind = Column | 'revoked';
const signedIn: readonly SignedIn[] = ['operator', 'owner', 'managing', 'audience', 'other'];

/** The scene's org for each signed-in column (server/testing/scene.ts). */
const orgOf: Record<SignedIn, string> = {
  operator: ORG.platform,
  owner: ORG.owner,
  managing: ORG.managing,
  audience: ORG.audience,
  other: ORG.other,
};

// ── §2, as a table ──────────────────────────────────────────────────────────────────────

type Outcome = 'ok' | 401 | 403 | 404;
type Expectation = Record<Column, Outcome>;
const row = (operator: Outcome, owner: Outcome, managing: Outcome, audience: Outcome, other: Outcome, anonymous: Outcome): Expectation => ({
  operator,
  owner,
  managing,
  audience,
  other,
  anonymous,
});

/**
 * docs/product.md §2's table. Where §2 states a rule per column ("own nodes", "own VMs only", "the
 * reservation's units"), the row is split by which VM is addressed, so each split has one
 * outcome per column. Lists are "always 200" and assert their filtering in `checks` below:
 * a list answers 200 and hides what the matching single-resource row would answer 404.
 */
// A table whose columns line up under the header comment; prettier would undo the alignment.
// prettier-ignore
const expectations = {
  //                                                      operator owner managing audience other anonymous
  'see node and its unit grid':                       row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'see a reservation':                                row('ok',    'ok',  'ok',    'ok',    404,   401),
  'list reservations on a node (filtered)':           row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'list reservations across nodes (filtered)':        row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'see the reservation calendar (filtered)':          row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'create a reservation on the node':                 row('ok',    'ok',  403,     403,     403,   401),
  'edit a reservation':                               row('ok',    'ok',  403,     403,     404,   401),
  'cancel a reservation':                             row('ok',    'ok',  403,     403,     404,   401),
  'release units':                                    row('ok',    'ok',  'ok',    403,     404,   401),
  'reclaim units':                                    row('ok',    'ok',  'ok',    403,     404,   401),
  're-affirm a needs-review reservation':             row('ok',    403,   403,     403,     404,   401),
  'schedule, move, cancel and list scheduled reclaims': row('ok',  'ok',  'ok',    403,     404,   401),
  'register a node':                                  row('ok',    403,   403,     403,     403,   401),
  'change a node topology':                           row('ok',    403,   403,     403,     403,   401),
  // §2's 403*: operator, owner and managing are not in this reservation's allowedOrgIds.
  'place a reserved-tier VM on the reservation':      row(403,     403,   403,     'ok',    404,   401),
  // §2's footnote: "unless that org is also in allowedOrgIds" (scene `wide-audience`).
  'place a reserved-tier VM, also in allowedOrgIds':  row('ok',    'ok',  'ok',    'ok',    404,   401),
  'place a spot VM on released or free units':        row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // "see a VM's id and units": yes | own nodes | the reservation's units | own VMs | own VMs.
  'see a VM: a spot tenant’s, on the reservation':    row('ok',    'ok',  'ok',    404,     404,   401),
  'see a VM: the audience’s, on the reservation':     row('ok',    'ok',  'ok',    'ok',    404,   401),
  'see a VM: a tenant’s, outside the reservation':    row('ok',    'ok',  404,     404,     404,   401),
  'see a VM: its own':                                row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'list VMs (filtered)':                              row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // "terminate a VM": yes | own VMs only ×4. A VM the caller may see but not end is 403;
  // one it may not see is 404 (§2: invisible resources answer 404, never 403).
  'terminate a VM: a spot tenant’s':                  row('ok',    403,   403,     404,     404,   401),
  'terminate a VM: the audience’s':                   row('ok',    403,   403,     'ok',    404,   401),
  'terminate a VM: its own':                          row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'read the audit trail (filtered, always 200)':      row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'read notifications (the acting org’s)':            row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // docs/product.md §5.7: each org reads its own feed, addressed to it with the fields it may see.
  'read events (the acting org’s)':                   row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // docs/product.md §5.8 Utilisation: each org's own relations; the operator's the fleet too.
  'read the utilisation roll-up (filtered, always 200)': row('ok', 'ok',  'ok',    'ok',    'ok',  401),
  // The org picker: for those who may create reservations (the operator, node owners).
  'search orgs (the org picker)':                     row('ok',    'ok',  403,     403,     403,   401),
  'mark own notification read':                       row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // Notifications are the acting org's own: another org's is 404, the operator's call included.
  'mark another org’s notification read':             row(404,     404,   404,     404,     404,   401),
  // Keys are per org: every principal of an org manages that org's keys (its API keys too).
  'manage own API keys':                              row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // … and no other's: the operator sees only the platform org's own keys.
  'revoke another org’s API key':                     row(404,     404,   404,     404,     404,   401),
  // docs/product.md §5.7: webhooks are per org, like keys.
  'manage own webhooks':                              row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  'manage another org’s webhook':                     row(404,     404,   404,     404,     404,   401),
  // docs/product.md §2 Members: each org's admins manage its own members and invitations …
  'manage own members and invitations':               row('ok',    'ok',  'ok',    'ok',    'ok',  401),
  // … and no other's: another org's member or invitation is 404, the operator's call included.
  'manage another org’s member or invitation':        row(404,     404,   404,     404,     404,   401),
  // docs/product.md §9.3 "Unlock": who is under attack is the platform's business alone.
  'see and lift sign-in locks':                       row('ok',    403,   403,     403,     403,   401),
} satisfies Record<string, Expectation>;
type Action = keyof typeof expectations;
/** Actions the console alone offers, with no REST route: unlocking sign-ins is the operator's console work (docs/product.md §9.3), members are people's (§2 Members). */
const consoleOnlyActions: readonly Action[] = ['see and lift sign-in locks', 'manage own members and invitations', 'manage another org’s member or invitation'];

function expectedFor(action: Action, kind: Kind): Outcome {
  // A revoked key is no credential at all: 401 before anything else (docs/product.md §5 check order).
  return kind === 'revoked' ? 401 : expectations[action][kind];
}

// ── Scenes ──────────────────────────────────────────────────────────────────────────────

/**
 * - `base`: buildScene (node n1, reservation r1, VMs vm-spot-a, vm-spot-b, vm-res, vm-od)
 *   plus one spot VM `own-<kind>` per signed-in kind, on node n-own (owned by the platform,
 *   so no other kind relates to it), and API keys: one per org and a revoked operator key;
 *   each signed-in kind's org, and org_tenant_a, also has a spare key `key-spare-<kind>`.
 * - `needs-review`: base, then the operator adds gpu-8 to n1, so r1 needs review.
 * - `history`: base, then a few audited actions for the audit trail and notifications, and two
 *   org-level events (no node): a key created by a system job, and one revoked by `other`'s
 *   API key. Each signed-in kind's org, and org_tenant_a, has an unread notification `ntf-<kind>`.
 * - `wide-audience`: base, then the owner adds the platform, itself and the managing org to
 *   r1's allowedOrgIds (§2's 403* footnote).
 * - `scheduled`: base, plus a pending scheduled reclaim `rcs-matrix` of gpu-3 in two hours (§5.6).
 */
type SceneName = 'base' | 'needs-review' | 'history' | 'wide-audience' | 'scheduled';
type Scene = {
  name: SceneName;
  tdb: TestDatabase;
  keys: Record<string, string>;
  revokedKey: string;
  /** Each signed-in kind's org's keys of one scope each (docs/product.md §2 Scopes). */
  scopedKeys: Record<string, Record<ApiKeyScope, string>>;
};

const ownVm = (kind: Kind) => (kind === 'anonymous' || kind === 'revoked' ? 'own-operator' : `own-${kind}`);
/** The spare key and the notification each kind's org holds; org_tenant_a's are nobody's own. */
const spareKey = (kind: Kind | 'tenant-a') => `key-spare-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
const ownNotification = (kind: Kind | 'tenant-a') => `ntf-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
/** Each holder's webhook endpoint and one event of its own (to redeliver); the endpoint's address is refused when sending, so nothing leaves. */
const ownWebhook = (kind: Kind | 'tenant-a') => `wh-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
const ownEvent = (kind: Kind | 'tenant-a') => `ev-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
/** Each holder org's second member (role `member`, besides its admin) and open invitation (docs/product.md §2 Members). */
const ownMember = (kind: Kind | 'tenant-a') => `user-member-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
const ownInvite = (kind: Kind | 'tenant-a') => `inv-${kind === 'anonymous' || kind === 'revoked' ? 'operator' : kind}`;
const holders: [SignedIn | 'tenant-a', string][] = [...signedIn.map((k): [SignedIn, string] => [k, orgOf[k]]), ['tenant-a', ORG.tenantA]];
const topologyPlusOne = [...gpuUnits(8), { id: 'gpu-8', model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: 'nvl-2' }];

async function makeScene(name: SceneName): Promise<Scene> {
  const tdb = await createTestDatabase();
  const db = tdb.db;
  // The REST transport reads the clock from PostgreSQL, so the scene is built around now.
  const now = new Date();
  await buildScene(db, now);
  await insertNode(db, { id: 'n-own', ownerOrgId: ORG.platform, createdAt: now });
  for (const [i, kind] of signedIn.entries()) {
    await insertVm(db, { id: ownVm(kind), nodeId: 'n-own', orgId: orgOf[kind], tier: 'spot', unitIds: [`gpu-${i}`], startedAt: now });
  }
  const keys = await issueKeys(db, Object.values(ORG));
  const scopedKeys: Scene['scopedKeys'] = {};
  for (const kind of signedIn) {
    const byScope = {} as Record<ApiKeyScope, string>;
    for (const scope of apiKeyScopes) byScope[scope] = (await issueApiKey(db, { orgId: orgOf[kind], name: `only ${scope}`, now, scopes: [scope] })).secret;
    scopedKeys[orgOf[kind]] = byScope;
  }
  // The operator's key: the one that would be allowed everything, had it not been revoked.
  const revoked = await issueApiKey(db, { orgId: ORG.platform, name: 'revoked', now });
  await db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, revoked.id));
  for (const [holder, orgId] of holders) {
    const secret = randomBytes(32).toString('base64url');
    await db.insert(apiKeys).values({ id: spareKey(holder), orgId, name: 'spare', prefix: 'gpuk_spare', secretHash: hashApiKeySecret(secret), createdAt: now });
    const hook = {
      id: ownWebhook(holder),
      orgId,
      url: 'https://192.0.2.1/hook',
      types: [],
      enabled: true,
      createdAt: now,
      updatedAt: now,
      cursorXid: 0,
      cursorSeq: 0,
    };
    await db.insert(webhookEndpoints).values(hook);
    await db.insert(webhookSecrets).values({ endpointId: hook.id, secret: newWebhookSecret(), createdAt: now });
    // As registering n1 writes it (server/events/catalog.ts), so that the feed's answer is what the document says.
    const data = { nodeId: 'n1', name: 'Node 1', ownerOrgId: ORG.owner, unitIds: ['gpu-0'], topologyGen: 1 };
    await db.insert(events).values({ id: ownEvent(holder), orgId, type: 'node.registered', at: now, data });
    // An admin and a member, so that a role may change and a member go without leaving no admin.
    await insertUser(db, { id: `user-admin-${holder}`, email: `admin-${holder}@x.example`, name: 'Admin', passwordHash: 'x', orgIds: [orgId] });
    await insertUser(db, {
      id: ownMember(holder),
      email: `member-${holder}@x.example`,
      name: 'Member',
      passwordHash: 'x',
      orgIds: [orgId],
      membershipRole: 'member',
    });
    const week = new Date(now.getTime() + 7 * 86_400_000);
    await db.insert(memberInvites).values({ id: ownInvite(holder), orgId, role: 'member', secretHash: `hash-${holder}`, createdAt: now, expiresAt: week });
  }

  // A known account locked out by failed sign-ins (docs/product.md §9.3), for the operator to unlock.
  await insertUser(db, { id: 'user_locked', email: 'locked@x.example', name: 'Locked', passwordHash: 'x', orgIds: [ORG.other] });
  await db.insert(signInThrottles).values({
    subject: 'account:locked@x.example',
    attempts: 10,
    windowStartedAt: now,
    lockedUntil: new Date(now.getTime() + 15 * 60_000),
    expiresAt: new Date(now.getTime() + 15 * 60_000),
  });

  if (name === 'needs-review') {
    await changeTopology({ ctx: ctxFor(db, ORG.platform, now), input: { nodeId: 'n1', units: topologyPlusOne } });
  }
  if (name === 'wide-audience') {
    const allowedOrgIds = [ORG.audience, ORG.managing, ORG.owner, ORG.platform];
    await updateReservation({ ctx: ctxFor(db, ORG.owner, now), input: { nodeId: 'n1', reservationId: 'r1', allowedOrgIds } });
  }
  if (name === 'scheduled') {
    const at = new Date(now.getTime() + 2 * 3_600_000);
    const rcs = { id: 'rcs-matrix', nodeId: 'n1', reservationId: 'r1' };
    await db.insert(reclaimSchedules).values({
      ...rcs,
      unitIds: ['gpu-3'],
      at,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      createdByOrgId: ORG.managing,
      createdByApiKeyId: `key_${ORG.managing}`,
    });
    await db.insert(reclaimScheduleUnits).values({ nodeId: 'n1', reservationId: 'r1', unitId: 'gpu-3', scheduleId: rcs.id });
  }
  if (name === 'history') {
    await registerNode({ ctx: ctxFor(db, ORG.platform, now), input: { id: 'n2', name: 'n2', ownerOrgId: ORG.owner, units: gpuUnits(2) } });
    await updateReservation({ ctx: ctxFor(db, ORG.owner, now), input: { nodeId: 'n1', reservationId: 'r1', contractRef: 'C-2' } });
    await placeVm({ ctx: ctxFor(db, ORG.audience, now), input: { nodeId: 'n1', unitIds: ['gpu-5'], tier: 'reserved', reservationId: 'r1' } });
    await placeVm({ ctx: ctxFor(db, ORG.other, now), input: { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' } });
    // Evicts vm-spot-a (org_tenant_a) and other's spot VM: each org gets a notification.
    await reclaim({ ctx: ctxFor(db, ORG.managing, now), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-3'] } });
    // Org-level events: a key the seed job creates (the platform's), one `other` revokes.
    await createApiKey({ ctx: systemCtx(db, 'seed', now), input: { name: 'seed' } });
    await revokeApiKey({ ctx: ctxFor(db, ORG.other, now), input: { apiKeyId: spareKey('other') } });
    for (const [holder, orgId] of holders) {
      const details = { vmId: `vm-${holder}`, nodeId: 'n-own', unitIds: ['gpu-0'], terminationReason: 'reclaimed' as const, terminatedAt: now.toISOString() };
      await db
        .insert(notifications)
        .values({ id: ownNotification(holder), orgId, at: now, kind: 'vm.reclaimed', message: `vm-${holder} was reclaimed.`, details });
    }
  }
  return { name, tdb, keys, revokedKey: revoked.secret, scopedKeys };
}

const shared = new Map<SceneName, Scene>();
async function sharedScene(name: SceneName): Promise<Scene> {
  let s = shared.get(name);
  if (!s) {
    s = await makeScene(name);
    shared.set(name, s);
  }
  return s;
}
async function dropShared(name: SceneName): Promise<void> {
  await shared.get(name)?.tdb.close();
  shared.delete(name);
}

/** Everything a verb may write, to prove that a call on a shared scene wrote nothing. */
async function snapshot(db: Db): Promise<string> {
  const parts = await Promise.all([
    db.select().from(nodes).orderBy(nodes.id),
    db.select().from(nodeUnits).orderBy(nodeUnits.nodeId, nodeUnits.position),
    db.select().from(reservations).orderBy(reservations.id),
    db.select().from(reservationUnits).orderBy(reservationUnits.reservationId, reservationUnits.unitId),
    db.select().from(vms).orderBy(vms.id),
    db.select().from(vmUnits).orderBy(vmUnits.vmId, vmUnits.unitId),
    db.select({ n: count() }).from(auditEvents),
    db.select({ id: notifications.id, readAt: notifications.readAt }).from(notifications).orderBy(notifications.id),
    // Not lastUsedAt: authenticating a request records it, which is no effect of the verb.
    db.select({ id: apiKeys.id, name: apiKeys.name, revokedAt: apiKeys.revokedAt }).from(apiKeys).orderBy(apiKeys.id),
    db.select().from(signInThrottles).orderBy(signInThrottles.subject),
    db.select().from(reclaimSchedules).orderBy(reclaimSchedules.id),
    db
      .select({
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        types: webhookEndpoints.types,
        enabled: webhookEndpoints.enabled,
        d: webhookEndpoints.description,
      })
      .from(webhookEndpoints)
      .orderBy(webhookEndpoints.id),
    db.select({ n: count() }).from(webhookSecrets),
    db.select({ n: count() }).from(webhookAttempts),
    db.select().from(memberships).orderBy(memberships.orgId, memberships.userId),
    db.select().from(memberInvites).orderBy(memberInvites.id),
  ]);
  return JSON.stringify(parts);
}

const nodeIdsOf = (body: unknown) => (body as { items: { id: string }[] }).items.map((n) => n.id);

// ── What each kind may see in the base scene (§2), for the filtered lists ───────────────

const n1States: Record<string, string> = {
  'gpu-0': 'spot-occupied',
  'gpu-1': 'spot-occupied',
  'gpu-2': 'spot-occupied',
  'gpu-3': 'released',
  'gpu-4': 'reserved-occupied',
  'gpu-5': 'reserved',
  'gpu-6': 'free',
  'gpu-7': 'occupied',
};
const n1VmOnUnit: Record<string, string> = { 'gpu-0': 'vm-spot-a', 'gpu-1': 'vm-spot-a', 'gpu-2': 'vm-spot-b', 'gpu-4': 'vm-res', 'gpu-7': 'vm-od' };
const r1Units = ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'];
const vmOrg: Record<string, string> = {
  'vm-spot-a': ORG.tenantA,
  'vm-spot-b': ORG.tenantB,
  'vm-res': ORG.audience,
  'vm-od': ORG.tenantB,
  ...Object.fromEntries(signedIn.map((k) => [ownVm(k), orgOf[k]])),
};
const n1Vms = ['vm-od', 'vm-res', 'vm-spot-a', 'vm-spot-b'];
/** "see a VM's id and units": yes | own nodes | the reservation's units | own VMs | own VMs. */
const visibleVms: Record<SignedIn, string[]> = {
  operator: Object.keys(vmOrg),
  owner: [...n1Vms, ownVm('owner')],
  managing: ['vm-res', 'vm-spot-a', 'vm-spot-b', ownVm('managing')],
  audience: ['vm-res', ownVm('audience')],
  other: [ownVm('other')],
};
const seesR1 = (kind: SignedIn) => kind !== 'other';
const sorted = (ids: Iterable<string>) => [...ids].sort();

// ── Checks of "ok" answers ──────────────────────────────────────────────────────────────

/** `role`: the console user's role in the acting org (the role dimension); absent for an API key. */
type Check = (body: unknown, kind: SignedIn, role?: MembershipRole) => void;

/** States for everyone; reservation ids to who may see r1; VM ids to who may see the VM. */
function checkN1(node: NodeView | undefined, kind: SignedIn) {
  expect(node, 'node n1 is listed').toBeDefined();
  const units = node!.units;
  expect(Object.fromEntries(units.map((u) => [u.id, u.state]))).toEqual(n1States);
  for (const u of units) {
    const expectRes = seesR1(kind) && r1Units.includes(u.id) ? 'r1' : undefined;
    expect(u.reservationId, `${u.id}.reservationId`).toBe(expectRes);
    const vm = n1VmOnUnit[u.id];
    expect(u.vmId, `${u.id}.vmId`).toBe(vm && visibleVms[kind].includes(vm) ? vm : undefined);
  }
}

/** "see which org owns a VM": the operator and the VM's own org only. */
function checkVmOrg(vm: VmView, kind: SignedIn) {
  const shown = kind === 'operator' || vmOrg[vm.id] === orgOf[kind];
  expect(vm.orgId, `${vm.id}.orgId shown to ${kind}`).toBe(shown ? vmOrg[vm.id] : undefined);
}

function checkVmList(body: unknown, kind: SignedIn, only?: readonly string[]) {
  const items = (Array.isArray(body) ? body : (body as { items: VmView[] }).items) as VmView[];
  const expected = visibleVms[kind].filter((id) => !only || only.includes(id));
  expect(sorted(items.map((v) => v.id))).toEqual(sorted(expected));
  for (const vm of items) checkVmOrg(vm, kind);
}

/** §2: a reservation's own fields are shown in full to every principal that may see it. */
function checkR1Fields(r: Reservation) {
  expect(r).toMatchObject({ id: 'r1', allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing] });
}

function checkReservationList(body: unknown, kind: SignedIn) {
  // REST answers Reservation objects; tRPC wraps each with the actions the console offers.
  const items = (body as { items: (Reservation | { reservation: Reservation })[] }).items.map((i) => ('reservation' in i ? i.reservation : i));
  expect(items.map((r) => r.id)).toEqual(seesR1(kind) ? ['r1'] : []);
  for (const r of items) checkR1Fields(r);
}

/** Across nodes, `role` narrows the list to the acting org's relation; unfiltered, it is what "see a reservation" allows. */
function checkReservationsAcross(role: 'any' | 'audience') {
  return (body: unknown, kind: SignedIn) => {
    const items = (body as { items: Reservation[] }).items;
    const listed = role === 'audience' ? kind === 'audience' : seesR1(kind);
    expect(items.map((r) => `${r.nodeId}/${r.id}`)).toEqual(listed ? ['n1/r1'] : []);
    for (const r of items) checkR1Fields(r);
  };
}

/** The calendar: every node listed; r1's bar on n1 only to those who may see r1 (§2). */
function checkCalendar(body: unknown, kind: SignedIn) {
  const items = (body as { items: { id: string; reservations: { id: string }[] }[] }).items;
  expect(items.map((n) => n.id)).toContain('n1');
  const bars = items.flatMap((n) => n.reservations.map((r) => `${n.id}/${r.id}`));
  expect(bars).toEqual(seesR1(kind) ? ['n1/r1'] : []);
}

/** The status history of r1 (built by factories: no audit events): created while active, still active. */
function checkR1History(body: unknown) {
  const { entries, truncated } = body as { entries: { kind: string; status: string }[]; truncated: boolean };
  expect(entries.map((e) => `${e.kind}:${e.status}`)).toEqual(['created:active']);
  expect(truncated).toBe(false);
}

/**
 * The history scene's events, as `action/reservationId/actor`, per docs/product.md §2: the operator all;
 * a node owner its nodes'; a managing org its reservations'; everyone its own actions.
 * `actorOrgId` shows to the operator, to the actor itself, and when the actor is the
 * platform, the node owner or a managing org; a tenant's own placements show without it. An
 * org-level event (no node, no reservation) shows to the operator and the actor's org only.
 */
const auditSeen: Record<SignedIn, string[]> = {
  operator: [
    `node.register/-/${ORG.platform}`,
    `reservation.update/r1/${ORG.owner}`,
    `vm.place/r1/${ORG.audience}`,
    `vm.place/-/${ORG.other}`,
    `reservation.reclaim/r1/${ORG.managing}`,
    `api_key.create/-/${ORG.platform}`,
    `api_key.revoke/-/${ORG.other}`,
  ],
  owner: [
    `node.register/-/${ORG.platform}`,
    `reservation.update/r1/${ORG.owner}`,
    'vm.place/r1/hidden',
    'vm.place/-/hidden',
    `reservation.reclaim/r1/${ORG.managing}`,
  ],
  managing: [`reservation.update/r1/${ORG.owner}`, 'vm.place/r1/hidden', `reservation.reclaim/r1/${ORG.managing}`],
  audience: [`vm.place/r1/${ORG.audience}`],
  other: [`vm.place/-/${ORG.other}`, `api_key.revoke/-/${ORG.other}`],
};

function checkAudit(body: unknown, kind: SignedIn) {
  const items = (body as { items: AuditEventView[] }).items;
  const seen = items.map((e) => `${e.action}/${e.reservationId ?? '-'}/${e.actorOrgId ?? 'hidden'}`);
  // nodeId is omitted, never null, exactly for org-level events (docs/product.md §5 Objects).
  for (const e of items) expect('nodeId' in e, e.action).toBe(!(orgAuditActions as readonly string[]).includes(e.action));
  // A spot placement carries no reservation; whether "own reservations" covers a spot VM on
  // units its reservation released is not settled by §2, so the managing org may or may not
  // see it — but never with the tenant's identity.
  const settled = kind === 'managing' ? seen.filter((s) => s !== 'vm.place/-/hidden') : seen;
  expect(sorted(settled)).toEqual(sorted(auditSeen[kind]));
}

function checkNotifications(body: unknown, kind: SignedIn) {
  const items = (body as { items: NotificationView[] }).items;
  // Each kind its own `ntf-<kind>`; only `other` also had a VM evicted (by the managing org's reclaim).
  expect(items.filter((n) => n.id.startsWith('ntf-')).map((n) => n.id)).toEqual([ownNotification(kind)]);
  const evicted = items.filter((n) => !n.id.startsWith('ntf-'));
  if (kind === 'other') {
    expect(evicted).toHaveLength(1);
    // Its spot VM on n1's gpu-3 (the id is generated, and scenes are built more than once).
    expect(evicted[0]!.details).toMatchObject({ nodeId: 'n1', unitIds: ['gpu-3'], terminationReason: 'reclaimed' });
  } else expect(evicted).toEqual([]);
}

/** Keys are per org: the kind's own (its test key, its spare, its single-scope ones, the operator's revoked one), never a secret. */
function checkApiKeyList(body: unknown, kind: SignedIn) {
  const items = (body as { items: ApiKeyView[] }).items;
  expect(items.filter((k) => k.id.startsWith('key-spare-')).map((k) => k.id)).toEqual([spareKey(kind)]);
  // …plus its keys of one scope each (the scope dimension's).
  expect(items).toHaveLength((kind === 'operator' ? 3 : 2) + apiKeyScopes.length);
  expect(JSON.stringify(body)).not.toMatch(/secret/i);
}

const checks = {
  lockedSignIns: ((body) => {
    expect((body as { items: { email: string; scope: string }[] }).items).toEqual([
      expect.objectContaining({ email: 'locked@x.example', scope: 'account', failures: 10 }),
    ]);
  }) satisfies Check,
  unlocked: ((body) => {
    expect(body).toEqual({ userId: 'user_locked', email: 'locked@x.example', unlocked: ['account'] });
  }) satisfies Check,
  nodeN1: ((body, kind) => checkN1(body as NodeView, kind)) satisfies Check,
  nodeList: ((body, kind) => {
    const items = (body as { items: NodeView[] }).items;
    // Every signed-in principal sees every node (§2 "see node": yes ×5).
    expect(items.map((n) => n.id)).toEqual(['n-own', 'n1']);
    checkN1(
      items.find((n) => n.id === 'n1'),
      kind,
    );
  }) satisfies Check,
  // The relation filters name the acting org's own standing only (n1: owner org_owner, r1 managed by org_managing, audience org_audience).
  nodesOwned: ((body, kind) => expect(nodeIdsOf(body)).toEqual(kind === 'operator' ? ['n-own'] : kind === 'owner' ? ['n1'] : [])) satisfies Check,
  nodesManaged: ((body, kind) => expect(nodeIdsOf(body)).toEqual(kind === 'managing' ? ['n1'] : [])) satisfies Check,
  nodesUsed: ((body, kind) => expect(nodeIdsOf(body)).toEqual(kind === 'audience' ? ['n1'] : [])) satisfies Check,
  // The fleet's owner offers: orgs that own a node, whose names every signed-in principal sees with the fleet (§9.1 q).
  nodeOwners: ((body) => expect((body as { items: { id: string }[] }).items.map((o) => o.id).sort()).toEqual([ORG.owner, ORG.platform])) satisfies Check,
  reservation: ((body) => checkR1Fields(body as Reservation)) satisfies Check,
  // The policy's node actions (server/policy.ts nodeRules), as the console offers them.
  // A viewer is offered nothing, whatever its org may do (docs/product.md §2 Roles, §6).
  nodeActions: ((body, kind, role) =>
    expect(body).toEqual(
      role === 'viewer' ? [] : kind === 'operator' ? ['createReservation', 'changeTopology'] : kind === 'owner' ? ['createReservation'] : [],
    )) satisfies Check,
  fleetActions: ((body, kind, role) => expect(body).toEqual(kind === 'operator' && role !== 'viewer' ? ['registerNode'] : [])) satisfies Check,
  // Ids and names only, and the orgs are all there (every org of the scene starts with org_).
  orgSearch: ((body) => {
    const items = (body as { items: { id: string; name: string }[] }).items;
    expect(items.map((o) => o.id).sort()).toEqual(Object.values(ORG).sort());
    for (const o of items) expect(Object.keys(o).sort()).toEqual(['id', 'name']);
  }) satisfies Check,
  reservationList: checkReservationList satisfies Check,
  reservationsAcross: checkReservationsAcross('any') satisfies Check,
  calendar: checkCalendar satisfies Check,
  reservationsAudience: checkReservationsAcross('audience') satisfies Check,
  reservationHistory: checkR1History satisfies Check,
  vm: ((body, kind) => checkVmOrg(body as VmView, kind)) satisfies Check,
  // One GPU of r1: gpu-3, released and idle, evicts nobody.
  plan: ((body) => expect(body).toMatchObject({ unitIds: ['gpu-3'], wouldTerminate: [], wouldSkip: [], policy: 'fewest-evictions' })) satisfies Check,
  // One unit as the grid shows it, and its VM exactly where the grid shows the VM's id.
  unitGpu0: ((body, kind) => {
    const unit = body as UnitDetailView;
    expect(unit).toMatchObject({ id: 'gpu-0', nodeId: 'n1', state: n1States['gpu-0'] });
    const shown = visibleVms[kind].includes('vm-spot-a');
    expect(unit.vmId, 'gpu-0.vmId').toBe(shown ? 'vm-spot-a' : undefined);
    expect(unit.vm?.id, 'gpu-0.vm').toBe(shown ? 'vm-spot-a' : undefined);
    if (unit.vm) checkVmOrg(unit.vm, kind);
  }) satisfies Check,
  vmDetail: ((body, kind) => checkVmOrg((body as { vm: VmView }).vm, kind)) satisfies Check,
  vmList: ((body, kind) => checkVmList(body, kind)) satisfies Check,
  n1VmList: ((body, kind) => checkVmList(body, kind, n1Vms)) satisfies Check,
  placed: ((body, kind) => expect((body as VmView).orgId).toBe(orgOf[kind])) satisfies Check,
  terminated: ((body, kind) => {
    expect((body as VmView).status).toBe('terminated');
    checkVmOrg(body as VmView, kind);
  }) satisfies Check,
  audit: checkAudit satisfies Check,
  notifications: checkNotifications satisfies Check,
  events: checkEvents satisfies Check,
  unreadCount: ((body, kind) => expect(body).toEqual({ unread: kind === 'other' ? 2 : 1 })) satisfies Check,
  read: ((body, kind) => expect(body as NotificationView).toMatchObject({ id: ownNotification(kind), readAt: expect.any(String) })) satisfies Check,
  apiKeyList: checkApiKeyList satisfies Check,
  apiKeyCreated: ((body) => {
    const key = body as CreatedApiKeyView;
    expect(key).toMatchObject({ name: 'matrix', secret: expect.stringMatching(/^gpuk_/) });
    expect(key.secret.startsWith(key.prefix)).toBe(true);
  }) satisfies Check,
  webhookList: ((body, kind) => expect((body as { items: WebhookView[] }).items.map((w) => w.id)).toEqual([ownWebhook(kind)])) satisfies Check,
  webhookOwn: ((body, kind) => expect((body as WebhookView).id).toBe(ownWebhook(kind))) satisfies Check,
  webhookSecret: ((body) => expect((body as WebhookWithSecretView).secret).toMatch(/^whsec_/)) satisfies Check,
  webhookAttempts: ((body) => expect((body as { items: unknown[] }).items).toEqual([])) satisfies Check,
  // The endpoint's address is refused when sending: the attempt is logged, nothing left the machine.
  webhookRedelivered: ((body, kind) =>
    expect(body as WebhookAttemptView).toMatchObject({ eventId: ownEvent(kind), manual: true, error: expect.stringMatching(/reserved/) })) satisfies Check,
  members: ((body, kind) => {
    const { members, invites } = body as MembersView;
    expect(members.map((m) => `${m.userId}:${m.role}`).sort()).toEqual(
      [`user-admin-${kind}:admin`, `${ownMember(kind)}:member`, ...(kind === 'other' ? ['user_locked:admin'] : [])].sort(),
    );
    expect(invites.map((i) => i.id)).toEqual([ownInvite(kind)]);
    expect(JSON.stringify(body)).not.toMatch(/hash-/);
  }) satisfies Check,
  roleChanged: ((body, kind) => expect(body).toEqual({ userId: ownMember(kind), role: 'viewer' })) satisfies Check,
  removed: ((body, kind) => expect(body).toEqual({ userId: ownMember(kind) })) satisfies Check,
  invited: ((body) => expect(body).toMatchObject({ role: 'member', path: expect.stringMatching(/^\/invite\/[A-Za-z0-9_-]{43}$/) })) satisfies Check,
  inviteWithdrawn: ((body, kind) => expect(body).toMatchObject({ id: ownInvite(kind), role: 'member' })) satisfies Check,
  apiKeyRevoked: ((body, kind) => expect(body as ApiKeyView).toMatchObject({ id: spareKey(kind), revokedAt: expect.any(String) })) satisfies Check,
};

/**
 * docs/product.md §5.7: the history scene's reclaim as each org's feed tells it — the managers
 * of r1 the VMs it ended, its audience not, each evicted tenant its own VM and never r1, and no
 * VM's org to anyone but the operator and that org.
 */
function checkEvents(body: unknown, kind: Kind): void {
  const items = (body as EventPage).items;
  const reclaimed = items.find((e) => e.type === 'reservation.reclaimed');
  for (const e of items) if ('orgId' in e.data && kind !== 'operator') expect(e.data.orgId, e.type).toBe(orgOf[kind as SignedIn]);
  if (kind === 'operator' || kind === 'owner' || kind === 'managing') expect(reclaimed?.data.terminated).toHaveLength(2);
  if (kind === 'audience') expect(Object.keys(reclaimed?.data ?? {}).sort()).toEqual(['nodeId', 'reservationId', 'unitIds']);
  if (kind === 'other') {
    expect(reclaimed).toBeUndefined();
    const own = items.filter((e) => e.type === 'vm.reclaimed');
    expect(own).toHaveLength(1);
    expect(own[0]!.data).not.toHaveProperty('reservationId');
  }
}

/**
 * §2: "the org that owns a VM appears only to the operator and to that org, in every
 * response". The spot tenants, and `other` (a tenant on n-own and in the history scene),
 * must never be named to anyone else.
 */
function leakedOrgs(text: string, kind: Kind): string[] {
  if (kind === 'operator') return [];
  const secret = [ORG.tenantA, ORG.tenantB, ...(kind === 'other' ? [] : [ORG.other])];
  return secret.filter((org) => text.includes(org));
}

// ── Routes: every REST route and tRPC procedure, mapped to its §2 action ────────────────

type RouteHandler = Parameters<typeof callRoute>[0];
type RouteModule = Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', RouteHandler>;
/** Every route file under app/v1, by its path (`../app/v1/nodes/[nodeId]/route.ts`). */
const routeFiles = import.meta.glob<RouteModule>('../app/v1/**/route.ts', { eager: true });
/** The route file that serves an OpenAPI path template of the route table. */
const routeFileOf = (template: string) =>
  `../app/v1/${template.replace(/^\/v1\/?/, '').replace(/\{(\w+)\}/g, '[$1]')}/route.ts`.replace('//route.ts', '/route.ts');
const specOf = (op: OperationId) => {
  const spec = restRoutes.find((r) => r.id === op);
  if (!spec) throw new Error(`No route-table entry for operation "${op}"`);
  return spec;
};

type PerKind<T> = T | ((kind: Kind) => T);
const resolve = <T>(v: PerKind<T>, kind: Kind): T => (typeof v === 'function' ? (v as (kind: Kind) => T)(kind) : v);

type Common = {
  action: Action;
  /** The scene the call runs on; a denied call may share it (it must write nothing). */
  scene: SceneName;
  /** Whether a successful call writes; such successes get a fresh database each. */
  mutates: boolean;
  /** What an "ok" answer must hold, beyond success (the filtering of lists). */
  check?: Check;
  /** Tells two rows of one route apart (dry run, which VM). */
  label?: string;
  /**
   * The answer names orgs by design (the org picker lists orgs to reserve for): the tenant
   * identity rule is about who runs which VM, which such an answer does not say.
   */
  namesOrgs?: true;
};
type RestRow = Common & {
  transport: 'rest';
  /** The operation (server/operations.ts) whose REST route the row calls; method and path come from its declaration. */
  op: OperationId;
  params?: PerKind<Record<string, string>>;
  /** The query string's fields (a GET's input beyond the path). */
  query?: Record<string, string>;
  body?: PerKind<unknown>;
};
/** `op` is the procedure's path too: an operation's id is `<router>.<procedure>`. */
type TrpcRow = Common & { transport: 'trpc'; op: OperationId; input: PerKind<unknown> };
type MatrixRow = RestRow | TrpcRow;

const r1 = { nodeId: 'n1', id: 'r1' };
const r1Input = { nodeId: 'n1', reservationId: 'r1' };
const rcs = { ...r1, scheduleId: 'rcs-matrix' };
const rcsInput = { ...r1Input, scheduleId: 'rcs-matrix' };
/** A time a scheduled reclaim may take (in the future, before r1 ends a day after the scene): two hours on, plus `extra`. */
const inTwoHours = (extra = 0) => new Date(Date.now() + (2 + extra) * 3_600_000).toISOString();
/** The calendar's window: the week around the scene (built around now). */
const calendarWindow = () => ({ from: new Date(Date.now() - 3 * 86_400_000).toISOString(), to: new Date(Date.now() + 4 * 86_400_000).toISOString() });
const registerBody = { id: 'n-new', name: 'New node', ownerOrgId: ORG.owner, units: [{ id: 'gpu-0', model: 'H100-SXM5', memoryGiB: 80 }] };
const createBody = { reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], contractRef: 'C-9' };
const placeReserved = { nodeId: 'n1', unitIds: ['gpu-5'], tier: 'reserved', reservationId: 'r1' };
// gpu-3 is released by r1 and idle: the double-sell path.
const placeSpot = { nodeId: 'n1', unitIds: ['gpu-3'], tier: 'spot' };
const releaseBody = { unitIds: ['gpu-5'], reason: 'matrix' };
const reclaimBody = { unitIds: ['gpu-0'], reason: 'matrix' };

// One route per line, so the coverage reads as a table; prettier would break each row over several lines.
// prettier-ignore
const routes: MatrixRow[] = [
  // REST ──────────────────────────────────────────────────────────────────────────────
  { transport: 'rest', op: 'nodes.list', action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeList },
  { transport: 'rest', op: 'nodes.register', body: registerBody, action: 'register a node', scene: 'base', mutates: true },
  { transport: 'rest', op: 'nodes.get', params: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeN1 },
  { transport: 'rest', op: 'nodes.unit', params: { nodeId: 'n1', unitId: 'gpu-0' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.unitGpu0 },
  { transport: 'rest', op: 'nodes.timeline', params: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false },
  { transport: 'rest', op: 'nodes.changeTopology', params: { nodeId: 'n1' }, body: { units: topologyPlusOne }, action: 'change a node topology', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.listForNode', params: { nodeId: 'n1' }, action: 'list reservations on a node (filtered)', scene: 'base', mutates: false, check: checks.reservationList },
  { transport: 'rest', op: 'reservations.list', action: 'list reservations across nodes (filtered)', scene: 'base', mutates: false, check: checks.reservationsAcross },
  { transport: 'rest', op: 'reservations.calendar', query: calendarWindow(), action: 'see the reservation calendar (filtered)', scene: 'base', mutates: false, check: checks.calendar },
  { transport: 'rest', op: 'reservations.create', params: { nodeId: 'n1' }, body: createBody, action: 'create a reservation on the node', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.get', params: r1, action: 'see a reservation', scene: 'base', mutates: false, check: checks.reservation },
  { transport: 'rest', op: 'utilisation.reservation', params: r1, query: { window: '7d' }, action: 'see a reservation', scene: 'base', mutates: false },
  { transport: 'rest', op: 'utilisation.rollup', query: { window: '30d' }, action: 'read the utilisation roll-up (filtered, always 200)', scene: 'base', mutates: false },
  { transport: 'rest', op: 'reservations.update', params: r1, body: { contractRef: 'C-2' }, action: 'edit a reservation', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.cancel', params: r1, body: { reason: 'matrix' }, action: 'cancel a reservation', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.release', params: r1, body: releaseBody, action: 'release units', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.release', params: r1, body: { ...releaseBody, dryRun: true }, label: 'dryRun', action: 'release units', scene: 'base', mutates: false },
  { transport: 'rest', op: 'reservations.reclaim', params: r1, body: reclaimBody, action: 'reclaim units', scene: 'base', mutates: true },
  { transport: 'rest', op: 'reservations.reclaim', params: r1, body: { ...reclaimBody, dryRun: true }, label: 'dryRun', action: 'reclaim units', scene: 'base', mutates: false },
  { transport: 'rest', op: 'reservations.reclaimPlan', params: r1, body: { count: 1 }, action: 'reclaim units', scene: 'base', mutates: false, check: checks.plan },
  { transport: 'rest', op: 'scheduledReclaims.list', params: r1, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: false },
  { transport: 'rest', op: 'scheduledReclaims.create', params: r1, body: { unitIds: ['gpu-2'], at: inTwoHours() }, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'rest', op: 'scheduledReclaims.get', params: rcs, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: false },
  { transport: 'rest', op: 'scheduledReclaims.reschedule', params: rcs, body: { at: inTwoHours(1) }, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'rest', op: 'scheduledReclaims.cancel', params: rcs, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'rest', op: 'reservations.reaffirm', params: r1, body: { reason: 'topology checked' }, action: 're-affirm a needs-review reservation', scene: 'needs-review', mutates: true },
  { transport: 'rest', op: 'vms.place', body: placeReserved, label: 'reserved', action: 'place a reserved-tier VM on the reservation', scene: 'base', mutates: true, check: checks.placed },
  { transport: 'rest', op: 'vms.place', body: placeReserved, label: 'reserved, caller also in allowedOrgIds', action: 'place a reserved-tier VM, also in allowedOrgIds', scene: 'wide-audience', mutates: true, check: checks.placed },
  { transport: 'rest', op: 'vms.place', body: placeSpot, label: 'spot', action: 'place a spot VM on released or free units', scene: 'base', mutates: true, check: checks.placed },
  { transport: 'rest', op: 'vms.list', action: 'list VMs (filtered)', scene: 'base', mutates: false, check: checks.vmList },
  { transport: 'rest', op: 'vms.get', params: { id: 'vm-spot-a' }, label: 'vm-spot-a', action: 'see a VM: a spot tenant’s, on the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'rest', op: 'vms.get', params: { id: 'vm-res' }, label: 'vm-res', action: 'see a VM: the audience’s, on the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'rest', op: 'vms.get', params: { id: 'vm-od' }, label: 'vm-od', action: 'see a VM: a tenant’s, outside the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'rest', op: 'vms.get', params: (k) => ({ id: ownVm(k) }), label: 'own', action: 'see a VM: its own', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'rest', op: 'vms.terminate', params: { id: 'vm-spot-a' }, body: {}, label: 'vm-spot-a', action: 'terminate a VM: a spot tenant’s', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'rest', op: 'vms.terminate', params: { id: 'vm-res' }, body: {}, label: 'vm-res', action: 'terminate a VM: the audience’s', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'rest', op: 'vms.terminate', params: (k) => ({ id: ownVm(k) }), body: {}, label: 'own', action: 'terminate a VM: its own', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'rest', op: 'audit.list', action: 'read the audit trail (filtered, always 200)', scene: 'history', mutates: false, check: checks.audit },
  { transport: 'rest', op: 'orgs.search', action: 'search orgs (the org picker)', scene: 'base', mutates: false, check: checks.orgSearch, namesOrgs: true },
  { transport: 'rest', op: 'audit.notifications', action: 'read notifications (the acting org’s)', scene: 'history', mutates: false, check: checks.notifications },
  { transport: 'rest', op: 'events.list', action: 'read events (the acting org’s)', scene: 'history', mutates: false, check: checks.events },
  { transport: 'rest', op: 'audit.markNotificationRead', params: (k) => ({ id: ownNotification(k) }), body: {}, label: 'own', action: 'mark own notification read', scene: 'history', mutates: true, check: checks.read },
  { transport: 'rest', op: 'audit.markNotificationRead', params: { id: ownNotification('tenant-a') }, body: {}, label: 'another org’s', action: 'mark another org’s notification read', scene: 'history', mutates: true },
  { transport: 'rest', op: 'apiKeys.list', action: 'manage own API keys', scene: 'base', mutates: false, check: checks.apiKeyList },
  { transport: 'rest', op: 'apiKeys.create', body: { name: 'matrix' }, action: 'manage own API keys', scene: 'base', mutates: true, check: checks.apiKeyCreated },
  { transport: 'rest', op: 'apiKeys.revoke', params: (k) => ({ id: spareKey(k) }), body: {}, label: 'own', action: 'manage own API keys', scene: 'base', mutates: true, check: checks.apiKeyRevoked },
  { transport: 'rest', op: 'apiKeys.revoke', params: { id: spareKey('tenant-a') }, body: {}, label: 'another org’s', action: 'revoke another org’s API key', scene: 'base', mutates: true },
  { transport: 'rest', op: 'webhooks.list', action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookList },
  { transport: 'rest', op: 'webhooks.create', body: { url: 'https://hooks.example.com/matrix' }, action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookSecret },
  { transport: 'rest', op: 'webhooks.get', params: (k) => ({ id: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookOwn },
  { transport: 'rest', op: 'webhooks.get', params: { id: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: false },
  { transport: 'rest', op: 'webhooks.update', params: (k) => ({ id: ownWebhook(k) }), body: { description: 'matrix' }, label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookOwn },
  { transport: 'rest', op: 'webhooks.update', params: { id: ownWebhook('tenant-a') }, body: { enabled: false }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'rest', op: 'webhooks.delete', params: (k) => ({ id: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookOwn },
  { transport: 'rest', op: 'webhooks.delete', params: { id: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'rest', op: 'webhooks.rotateSecret', params: (k) => ({ id: ownWebhook(k) }), body: {}, label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookSecret },
  { transport: 'rest', op: 'webhooks.rotateSecret', params: { id: ownWebhook('tenant-a') }, body: {}, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'rest', op: 'webhooks.attempts', params: (k) => ({ id: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookAttempts },
  { transport: 'rest', op: 'webhooks.attempts', params: { id: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: false },
  { transport: 'rest', op: 'webhooks.redeliver', params: (k) => ({ id: ownWebhook(k) }), body: (k: Kind) => ({ eventId: ownEvent(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookRedelivered },
  { transport: 'rest', op: 'webhooks.redeliver', params: { id: ownWebhook('tenant-a') }, body: { eventId: ownEvent('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },

  // tRPC ──────────────────────────────────────────────────────────────────────────────
  { transport: 'trpc', op: 'nodes.get', input: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeN1 },
  { transport: 'trpc', op: 'nodes.list', input: {}, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeList },
  { transport: 'trpc', op: 'nodes.list', label: 'owns', input: { relation: 'owns' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodesOwned },
  { transport: 'trpc', op: 'nodes.list', label: 'manages', input: { relation: 'manages' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodesManaged },
  { transport: 'trpc', op: 'nodes.list', label: 'uses', input: { relation: 'uses' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodesUsed },
  { transport: 'trpc', op: 'nodes.owners', input: { q: 'org' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeOwners },
  { transport: 'trpc', op: 'nodes.actions', input: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.nodeActions },
  { transport: 'trpc', op: 'nodes.fleetActions', input: undefined, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.fleetActions },
  { transport: 'trpc', op: 'orgs.search', input: { q: 'org_' }, action: 'search orgs (the org picker)', scene: 'base', mutates: false, check: checks.orgSearch, namesOrgs: true },
  { transport: 'trpc', op: 'nodes.unit', input: { nodeId: 'n1', unitId: 'gpu-0' }, action: 'see node and its unit grid', scene: 'base', mutates: false, check: checks.unitGpu0 },
  { transport: 'trpc', op: 'nodes.topologyHistory', input: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'nodes.timeline', input: { nodeId: 'n1' }, action: 'see node and its unit grid', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'nodes.register', input: registerBody, action: 'register a node', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'nodes.changeTopology', input: { nodeId: 'n1', units: topologyPlusOne }, action: 'change a node topology', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.get', input: r1Input, action: 'see a reservation', scene: 'base', mutates: false, check: checks.reservation },
  { transport: 'trpc', op: 'reservations.listForNode', input: { nodeId: 'n1' }, action: 'list reservations on a node (filtered)', scene: 'base', mutates: false, check: checks.reservationList },
  { transport: 'trpc', op: 'reservations.history', input: r1Input, action: 'see a reservation', scene: 'base', mutates: false, check: checks.reservationHistory },
  { transport: 'trpc', op: 'reservations.offers', input: r1Input, action: 'see a reservation', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'utilisation.reservation', input: { ...r1Input, window: '30d' }, action: 'see a reservation', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'utilisation.rollup', input: { window: '7d' }, action: 'read the utilisation roll-up (filtered, always 200)', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'reservations.list', input: {}, action: 'list reservations across nodes (filtered)', scene: 'base', mutates: false, check: checks.reservationsAcross },
  { transport: 'trpc', op: 'reservations.calendar', input: calendarWindow(), action: 'see the reservation calendar (filtered)', scene: 'base', mutates: false, check: checks.calendar },
  { transport: 'trpc', op: 'reservations.list', input: { role: 'audience' }, label: 'role audience', action: 'list reservations across nodes (filtered)', scene: 'base', mutates: false, check: checks.reservationsAudience },
  { transport: 'trpc', op: 'reservations.create', input: { nodeId: 'n1', ...createBody }, action: 'create a reservation on the node', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.update', input: { ...r1Input, contractRef: 'C-2' }, action: 'edit a reservation', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.cancel', input: { ...r1Input, reason: 'matrix' }, action: 'cancel a reservation', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.release', input: { ...r1Input, ...releaseBody }, action: 'release units', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.release', input: { ...r1Input, ...releaseBody, dryRun: true }, label: 'dryRun', action: 'release units', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'reservations.reclaim', input: { ...r1Input, ...reclaimBody }, action: 'reclaim units', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'reservations.reclaim', input: { ...r1Input, ...reclaimBody, dryRun: true }, label: 'dryRun', action: 'reclaim units', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'reservations.reclaimPlan', input: { ...r1Input, count: 1 }, action: 'reclaim units', scene: 'base', mutates: false, check: checks.plan },
  { transport: 'trpc', op: 'scheduledReclaims.list', input: r1Input, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: false },
  { transport: 'trpc', op: 'scheduledReclaims.create', input: () => ({ ...r1Input, unitIds: ['gpu-2'], at: inTwoHours() }), action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'trpc', op: 'scheduledReclaims.get', input: rcsInput, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: false },
  { transport: 'trpc', op: 'scheduledReclaims.reschedule', input: () => ({ ...rcsInput, at: inTwoHours(1) }), action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'trpc', op: 'scheduledReclaims.cancel', input: rcsInput, action: 'schedule, move, cancel and list scheduled reclaims', scene: 'scheduled', mutates: true },
  { transport: 'trpc', op: 'reservations.reaffirm', input: { ...r1Input, reason: 'topology checked' }, action: 're-affirm a needs-review reservation', scene: 'needs-review', mutates: true },
  { transport: 'trpc', op: 'vms.list', input: {}, action: 'list VMs (filtered)', scene: 'base', mutates: false, check: checks.vmList },
  { transport: 'trpc', op: 'vms.listForNode', input: { nodeId: 'n1' }, action: 'list VMs (filtered)', scene: 'base', mutates: false, check: checks.n1VmList },
  { transport: 'trpc', op: 'vms.get', input: { vmId: 'vm-spot-a' }, label: 'vm-spot-a', action: 'see a VM: a spot tenant’s, on the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'trpc', op: 'vms.get', input: { vmId: 'vm-res' }, label: 'vm-res', action: 'see a VM: the audience’s, on the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'trpc', op: 'vms.get', input: { vmId: 'vm-od' }, label: 'vm-od', action: 'see a VM: a tenant’s, outside the reservation', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'trpc', op: 'vms.get', input: (k: Kind) => ({ vmId: ownVm(k) }), label: 'own', action: 'see a VM: its own', scene: 'base', mutates: false, check: checks.vm },
  { transport: 'trpc', op: 'vms.detail', input: { vmId: 'vm-spot-a' }, label: 'vm-spot-a', action: 'see a VM: a spot tenant’s, on the reservation', scene: 'base', mutates: false, check: checks.vmDetail },
  { transport: 'trpc', op: 'vms.detail', input: (k: Kind) => ({ vmId: ownVm(k) }), label: 'own', action: 'see a VM: its own', scene: 'base', mutates: false, check: checks.vmDetail },
  { transport: 'trpc', op: 'vms.place', input: placeReserved, label: 'reserved', action: 'place a reserved-tier VM on the reservation', scene: 'base', mutates: true, check: checks.placed },
  { transport: 'trpc', op: 'vms.place', input: placeReserved, label: 'reserved, caller also in allowedOrgIds', action: 'place a reserved-tier VM, also in allowedOrgIds', scene: 'wide-audience', mutates: true, check: checks.placed },
  { transport: 'trpc', op: 'vms.place', input: placeSpot, label: 'spot', action: 'place a spot VM on released or free units', scene: 'base', mutates: true, check: checks.placed },
  { transport: 'trpc', op: 'vms.terminate', input: { vmId: 'vm-spot-a' }, label: 'vm-spot-a', action: 'terminate a VM: a spot tenant’s', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'trpc', op: 'vms.terminate', input: { vmId: 'vm-res' }, label: 'vm-res', action: 'terminate a VM: the audience’s', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'trpc', op: 'vms.terminate', input: (k: Kind) => ({ vmId: ownVm(k) }), label: 'own', action: 'terminate a VM: its own', scene: 'base', mutates: true, check: checks.terminated },
  { transport: 'trpc', op: 'audit.list', input: {}, action: 'read the audit trail (filtered, always 200)', scene: 'history', mutates: false, check: checks.audit },
  { transport: 'trpc', op: 'audit.notifications', input: {}, action: 'read notifications (the acting org’s)', scene: 'history', mutates: false, check: checks.notifications },
  { transport: 'trpc', op: 'events.list', input: {}, action: 'read events (the acting org’s)', scene: 'history', mutates: false, check: checks.events },
  { transport: 'trpc', op: 'audit.unreadNotificationCount', input: undefined, action: 'read notifications (the acting org’s)', scene: 'history', mutates: false, check: checks.unreadCount },
  { transport: 'trpc', op: 'audit.markNotificationRead', input: (k: Kind) => ({ notificationId: ownNotification(k) }), label: 'own', action: 'mark own notification read', scene: 'history', mutates: true, check: checks.read },
  { transport: 'trpc', op: 'audit.markNotificationRead', input: { notificationId: ownNotification('tenant-a') }, label: 'another org’s', action: 'mark another org’s notification read', scene: 'history', mutates: true },
  { transport: 'trpc', op: 'apiKeys.list', input: {}, action: 'manage own API keys', scene: 'base', mutates: false, check: checks.apiKeyList },
  { transport: 'trpc', op: 'apiKeys.create', input: { name: 'matrix' }, action: 'manage own API keys', scene: 'base', mutates: true, check: checks.apiKeyCreated },
  { transport: 'trpc', op: 'apiKeys.revoke', input: (k: Kind) => ({ apiKeyId: spareKey(k) }), label: 'own', action: 'manage own API keys', scene: 'base', mutates: true, check: checks.apiKeyRevoked },
  { transport: 'trpc', op: 'apiKeys.revoke', input: { apiKeyId: spareKey('tenant-a') }, label: 'another org’s', action: 'revoke another org’s API key', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'webhooks.list', input: {}, action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookList },
  { transport: 'trpc', op: 'webhooks.create', input: { url: 'https://hooks.example.com/matrix' }, action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookSecret },
  { transport: 'trpc', op: 'webhooks.get', input: (k: Kind) => ({ webhookId: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookOwn },
  { transport: 'trpc', op: 'webhooks.get', input: { webhookId: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'webhooks.update', input: (k: Kind) => ({ webhookId: ownWebhook(k), description: 'matrix' }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookOwn },
  { transport: 'trpc', op: 'webhooks.update', input: { webhookId: ownWebhook('tenant-a'), enabled: false }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'webhooks.delete', input: (k: Kind) => ({ webhookId: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookOwn },
  { transport: 'trpc', op: 'webhooks.delete', input: { webhookId: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'webhooks.rotateSecret', input: (k: Kind) => ({ webhookId: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookSecret },
  { transport: 'trpc', op: 'webhooks.rotateSecret', input: { webhookId: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'webhooks.attempts', input: (k: Kind) => ({ webhookId: ownWebhook(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: false, check: checks.webhookAttempts },
  { transport: 'trpc', op: 'webhooks.attempts', input: { webhookId: ownWebhook('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: false },
  { transport: 'trpc', op: 'webhooks.redeliver', input: (k: Kind) => ({ webhookId: ownWebhook(k), eventId: ownEvent(k) }), label: 'own', action: 'manage own webhooks', scene: 'base', mutates: true, check: checks.webhookRedelivered },
  { transport: 'trpc', op: 'webhooks.redeliver', input: { webhookId: ownWebhook('tenant-a'), eventId: ownEvent('tenant-a') }, label: 'another org’s', action: 'manage another org’s webhook', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'members.list', input: undefined, action: 'manage own members and invitations', scene: 'base', mutates: false, check: checks.members },
  { transport: 'trpc', op: 'members.changeRole', input: (k: Kind) => ({ userId: ownMember(k), role: 'viewer' }), label: 'own', action: 'manage own members and invitations', scene: 'base', mutates: true, check: checks.roleChanged },
  { transport: 'trpc', op: 'members.changeRole', input: { userId: ownMember('tenant-a'), role: 'viewer' }, label: 'another org’s', action: 'manage another org’s member or invitation', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'members.remove', input: (k: Kind) => ({ userId: ownMember(k) }), label: 'own', action: 'manage own members and invitations', scene: 'base', mutates: true, check: checks.removed },
  { transport: 'trpc', op: 'members.remove', input: { userId: ownMember('tenant-a') }, label: 'another org’s', action: 'manage another org’s member or invitation', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'members.invite', input: { role: 'member' }, action: 'manage own members and invitations', scene: 'base', mutates: true, check: checks.invited },
  { transport: 'trpc', op: 'members.revokeInvite', input: (k: Kind) => ({ inviteId: ownInvite(k) }), label: 'own', action: 'manage own members and invitations', scene: 'base', mutates: true, check: checks.inviteWithdrawn },
  { transport: 'trpc', op: 'members.revokeInvite', input: { inviteId: ownInvite('tenant-a') }, label: 'another org’s', action: 'manage another org’s member or invitation', scene: 'base', mutates: true },
  { transport: 'trpc', op: 'signIns.locked', input: undefined, action: 'see and lift sign-in locks', scene: 'base', mutates: false, check: checks.lockedSignIns },
  { transport: 'trpc', op: 'signIns.unlock', input: { userId: 'user_locked' }, action: 'see and lift sign-in locks', scene: 'base', mutates: true, check: checks.unlocked },
];

// ── Calling a route as a kind of principal ──────────────────────────────────────────────

/** What came back: the outcome in the expectations' terms, and the rest for the checks. */
type Answer = { outcome: Outcome | string; status?: number; body: unknown; text: string; problemCode?: unknown; contentType?: string | null };

async function callRest(r: RestRow, kind: Kind, scene: Scene, scope?: ApiKeyScope): Promise<Answer> {
  const params = r.params ? resolve(r.params, kind) : {};
  const spec = specOf(r.op);
  const urlPath =
    spec.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k]!)) + (r.query ? `?${new URLSearchParams(r.query).toString()}` : '');
  const key =
    kind === 'anonymous' ? undefined : kind === 'revoked' ? scene.revokedKey : scope ? scene.scopedKeys[orgOf[kind]]![scope] : scene.keys[orgOf[kind]];
  // Route handlers take their pool from DATABASE_URL; several scenes are alive at once.
  process.env.DATABASE_URL = scene.tdb.url;
  const handler = routeFiles[routeFileOf(spec.path)]![spec.method];
  const res = await callRoute(handler, { method: spec.method, path: urlPath, params, key, body: r.body === undefined ? undefined : resolve(r.body, kind) });
  const outcome =
    res.status >= 200 && res.status < 300
      ? 'ok'
      : [401, 403, 404].includes(res.status)
        ? (res.status as Outcome)
        : `${res.status} ${String(res.json?.code)}: ${String(res.json?.detail)}`;
  return { outcome, status: res.status, body: res.json, text: res.text, problemCode: res.json?.code, contentType: res.headers.get('content-type') };
}

const trpcOutcome: Partial<Record<TRPCError['code'], Outcome>> = { UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

async function callTrpc(r: TrpcRow, kind: Kind, scene: Scene, role: MembershipRole = 'admin'): Promise<Answer> {
  const principal: Principal | null =
    kind === 'anonymous' || kind === 'revoked' ? null : { orgId: orgOf[kind], actor: { kind: 'user', userId: `user_${kind}` }, via: 'console', role };
  // No `now`: the procedure reads PostgreSQL's clock, as the console's transport does.
  const caller = createCaller({ db: scene.tdb.db, principal });
  const fn = r.op.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], caller) as (input: unknown) => Promise<unknown>;
  try {
    const body = await fn(resolve(r.input, kind));
    return { outcome: 'ok', body, text: JSON.stringify(body) ?? '' };
  } catch (e) {
    if (!(e instanceof TRPCError)) throw e;
    return { outcome: trpcOutcome[e.code] ?? `${e.code}: ${e.message}`, body: undefined, text: e.message };
  }
}

const rowName = (r: MatrixRow) =>
  (r.transport === 'rest' ? `REST ${specOf(r.op).method} ${specOf(r.op).path}` : `tRPC ${r.op}`) + (r.label ? ` (${r.label})` : '');
const problemCodes: Partial<Record<Outcome, string>> = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' };

// ── The matrix ──────────────────────────────────────────────────────────────────────────

let savedRateLimit: string | undefined;
let savedOrgRateLimit: string | undefined;
beforeAll(() => {
  process.env.PLATFORM_ORG_ID = ORG.platform;
  // The matrix measures permissions, not the limiters (one key answers ~30 calls).
  savedRateLimit = process.env.RATE_LIMIT_PER_MINUTE;
  savedOrgRateLimit = process.env.RATE_LIMIT_PER_ORG_PER_MINUTE;
  process.env.RATE_LIMIT_PER_MINUTE = '0';
  process.env.RATE_LIMIT_PER_ORG_PER_MINUTE = '0';
});
afterAll(async () => {
  if (savedRateLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedRateLimit;
  if (savedOrgRateLimit === undefined) delete process.env.RATE_LIMIT_PER_ORG_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_ORG_PER_MINUTE = savedOrgRateLimit;
  for (const name of [...shared.keys()]) await dropShared(name);
});

describe('authorization matrix (docs/product.md §2 × §5 routes × tRPC procedures, §8 R4)', () => {
  for (const r of routes) {
    const kinds: readonly Kind[] = r.transport === 'rest' ? [...columns, 'revoked'] : columns;
    describe(rowName(r), () => {
      for (const kind of kinds) {
        const expected = expectedFor(r.action, kind);
        it(`${kind} → ${expected}  [${r.action}]`, async () => {
          const fresh = r.mutates && expected === 'ok';
          const scene = fresh ? await makeScene(r.scene) : await sharedScene(r.scene);
          try {
            const before = fresh ? '' : await snapshot(scene.tdb.db);
            const answer = r.transport === 'rest' ? await callRest(r, kind, scene) : await callTrpc(r, kind, scene);
            const wrote = !fresh && (await snapshot(scene.tdb.db)) !== before;
            if (wrote) await dropShared(r.scene);

            expect(answer.outcome, `${rowName(r)} as ${kind}`).toBe(expected);
            expect(wrote, 'a call that is denied, or only reads, writes nothing').toBe(false);
            if (!r.namesOrgs) expect(leakedOrgs(answer.text, kind), 'org ids this principal may not learn').toEqual([]);
            if (r.transport === 'rest' && expected !== 'ok') {
              expect(answer.contentType).toBe('application/problem+json');
              expect(answer.problemCode).toBe(problemCodes[expected]);
            }
            if (expected === 'ok' && kind !== 'anonymous' && kind !== 'revoked') {
              if (r.transport === 'rest') expect(answer.status).toBe(specOf(r.op).status ?? 200);
              r.check?.(answer.body, kind);
            }
          } finally {
            if (fresh) await scene.tdb.close();
          }
        });
      }
    });
  }
});

// ── Roles and scopes: the same rows, for each role and each single scope ───────────────

/**
 * docs/product.md §2 Roles: a console user may call an operation when its role grants the
 * operation's scope (`roleGrants`, server/policy.ts; `scope`, the declaration), and then gets what
 * its org's relation gets (the table above, which is the admin's); otherwise 403, before anything
 * is read — so a viewer's 403 does not depend on whether the resource exists.
 */
function expectedForRole(r: MatrixRow, role: MembershipRole, kind: SignedIn): Outcome {
  const scope: OperationScope = operationById(r.op).scope;
  return (roleGrants[role] as readonly OperationScope[]).includes(scope) ? expectations[r.action][kind] : 403;
}

/**
 * The column a row's scope cases run as: the first whose relation allows the action (so the one
 * scope that suffices is seen to suffice), else the operator.
 */
const scopeColumn = (r: MatrixRow): SignedIn => signedIn.find((k) => expectations[r.action][k] === 'ok') ?? 'operator';

/** Runs one case: on a fresh database when it should succeed and writes, else on the shared scene, proving a refusal wrote nothing. */
async function runCase(r: MatrixRow, kind: SignedIn, expected: Outcome, call: (scene: Scene) => Promise<Answer>, after: (answer: Answer) => void) {
  const fresh = r.mutates && expected === 'ok';
  const scene = fresh ? await makeScene(r.scene) : await sharedScene(r.scene);
  try {
    const before = fresh ? '' : await snapshot(scene.tdb.db);
    const answer = await call(scene);
    const wrote = !fresh && (await snapshot(scene.tdb.db)) !== before;
    if (wrote) await dropShared(r.scene);
    expect(answer.outcome, `${rowName(r)} as ${kind}`).toBe(expected);
    expect(wrote, 'a call that is denied, or only reads, writes nothing').toBe(false);
    if (!r.namesOrgs) expect(leakedOrgs(answer.text, kind), 'org ids this principal may not learn').toEqual([]);
    after(answer);
  } finally {
    if (fresh) await scene.tdb.close();
  }
}

describe('roles × relations × actions (docs/product.md §2 Roles), over tRPC: member and viewer (the admin is the matrix above)', () => {
  for (const r of routes) {
    if (r.transport !== 'trpc') continue;
    for (const role of ['member', 'viewer'] as const) {
      describe(`${rowName(r)} as a ${role}`, () => {
        for (const kind of signedIn) {
          const expected = expectedForRole(r, role, kind);
          it(`${kind} ${role} → ${expected}  [${r.action}]`, async () => {
            await runCase(
              r,
              kind,
              expected,
              (scene) => callTrpc(r, kind, scene, role),
              (answer) => {
                if (expected === 'ok') r.check?.(answer.body, kind, role);
              },
            );
          });
        }
      });
    }
  }
});

describe('scopes × operations (docs/product.md §2 Scopes), over REST: a key of each single scope', () => {
  for (const r of routes) {
    if (r.transport !== 'rest') continue;
    const needed = operationById(r.op).scope;
    const kind = scopeColumn(r);
    describe(`${rowName(r)} as ${kind}`, () => {
      for (const scope of apiKeyScopes) {
        const expected: Outcome = scope === needed ? expectations[r.action][kind] : 403;
        it(`a ${scope} key → ${expected}${scope === needed ? '' : ' insufficient_scope'}  [${r.action}]`, async () => {
          await runCase(
            r,
            kind,
            expected,
            (scene) => callRest(r, kind, scene, scope),
            (answer) => {
              if (scope !== needed) {
                // Checked before the body: the problem names the scope the operation needs.
                expect(answer.problemCode).toBe('insufficient_scope');
                expect((answer.body as { scope?: string }).scope).toBe(needed);
              } else if (expected === 'ok') r.check?.(answer.body, kind);
            },
          );
        });
      }
    });
  }
});

// ── Coverage: a route or procedure without a row fails here ─────────────────────────────

describe('the matrix covers every route and procedure', () => {
  it('has a REST row for every operation REST publishes, and no row for one it does not', () => {
    const rows = new Set(routes.flatMap((r) => (r.transport === 'rest' ? [r.op] : [])));
    const published = operations.filter(isRest).map((o) => o.id);
    expect(
      published.filter((id) => !rows.has(id)),
      'REST operations without a matrix row',
    ).toEqual([]);
    expect(
      [...rows].filter((id) => !published.includes(id)),
      'REST rows naming no REST operation',
    ).toEqual([]);
  });

  it('has a route file for every route-table path, answering exactly its methods, and no route file outside the table', async () => {
    const templates = [...new Set(restRoutes.map((r) => r.path))];
    for (const template of templates) {
      const mod = routeFiles[routeFileOf(template)];
      expect(mod, `${routeFileOf(template)} for ${template}`).toBeDefined();
      const res = await mod!.OPTIONS(new Request(`http://localhost${template}`, { method: 'OPTIONS' }), { params: Promise.resolve({}) });
      const declared = (res.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS');
      const tabled = restRoutes.filter((r) => r.path === template).map((r) => r.method);
      expect(declared.sort(), `Allow of ${template}`).toEqual([...tabled].sort());
    }
    // The bare /v1 and the catch-all answer 404 to everything.
    const files = Object.keys(routeFiles).filter((f) => f !== '../app/v1/route.ts' && !f.includes('[...'));
    expect(
      files.filter((f) => !templates.some((t) => routeFileOf(t) === f)),
      'route files without a table entry',
    ).toEqual([]);
  });

  it('has a tRPC row for every operation, and the router serves exactly the operations', () => {
    const ids = operations.map((o) => o.id).sort();
    expect(Object.keys(appRouter._def.procedures).sort(), 'the router is built from the declarations').toEqual(ids);
    const covered = new Set(routes.flatMap((r) => (r.transport === 'trpc' ? [r.op] : [])));
    expect(
      ids.filter((p) => !covered.has(p)),
      'operations without a tRPC matrix row',
    ).toEqual([]);
  });

  it('exercises every action of the expectations table on both transports (console-only actions on tRPC alone)', () => {
    for (const transport of ['rest', 'trpc'] as const) {
      const used = new Set(routes.filter((r) => r.transport === transport).map((r) => r.action));
      const owed = (Object.keys(expectations) as Action[]).filter((a) => transport === 'trpc' || !consoleOnlyActions.includes(a));
      expect(
        owed.filter((a) => !used.has(a)),
        `actions without a ${transport} row`,
      ).toEqual([]);
      if (transport === 'rest')
        expect(
          consoleOnlyActions.filter((a) => used.has(a)),
          'console-only actions with a REST row',
        ).toEqual([]);
    }
  });
});
