/**
 * The one policy module (docs/product.md §2): who may take each action, and what each principal
 * may see. Verbs assert these rules; read verbs report the same rules as `actions`, so the
 * console offers exactly what the API would accept. Nothing else states a permission or builds
 * visibility SQL (a lint rule in eslint.config.mjs keeps the acting org's id out of queries
 * written anywhere else), and the module imports no entity view (lint as well): what it judges
 * it declares by shape.
 *
 * 0. Roles and scopes — what a principal may call within what its org may: a console user's
 *    role in the acting org, an API key's scopes (§2 Roles and scopes), judged per operation.
 * 1. Relations — how the acting org stands to a node and a reservation (§2's columns).
 * 2. Actions — what a principal may DO: writes only, one rule each in a typed table per object
 *    (`reservationRules`, `nodeRules`, `vmRules`): who (relation), and for reservations when
 *    (status). These, and only these, may be offered as console buttons (`offered*Actions`).
 * 3. Visibility — what a principal may SEE: every read's rule. SQL for lists, a JS predicate
 *    where a computed view needs it (tested equal, server/policy.test.ts), and the reads only
 *    some principals may make at all (`assertMay*`, 403). Nothing here is ever offered.
 * A new read needs a rule in 3, never an entry in 2 (docs/architecture.md "Add a verb").
 */
import type { DbOrTx } from '@/db/client';
import {
  apiKeys,
  apiKeyScopes,
  auditEvents,
  events,
  memberInvites,
  memberships,
  nodes,
  notifications,
  reservationOrgs,
  reservations,
  vms,
  webhookEndpoints,
  type ApiKeyScope,
  type MembershipRole,
} from '@/db/schema';
import { arrayContains, eq, or, sql, type SQL } from 'drizzle-orm';
import { isOperator, platformOrgId, type Principal } from './context';
import { DomainError } from './errors';
import type { ReservationRole } from './reservations/roles';
import type { ReservationStatus } from './reservations/status';

// 0. Roles and scopes ------------------------------------------------------------------

/**
 * What an operation needs of the principal beyond its org's relation (docs/product.md §2 Roles
 * and scopes), declared once per operation (`scope` in server/<entity>/operations.ts): one of
 * the four API key scopes, or `members:manage` — the members page and sign-in locks, which are
 * people's business: no key holds it (keys cannot reach those operations: they are not on
 * REST), only an admin's role grants it.
 */
export type OperationScope = ApiKeyScope | 'members:manage';
export const operationScopes = [...apiKeyScopes, 'members:manage'] as const satisfies readonly OperationScope[];

/**
 * What each role may call (docs/product.md §2 Roles): an admin everything the org may; a member
 * every action the org may take, but not members, keys or webhooks; a viewer reads only — every
 * `read` operation is a query, so a viewer takes no action at all (marking a notification read
 * included: its scope is `vms:write`, server/policy.test.ts holds both).
 */
export const roleGrants = {
  admin: ['read', 'reservations:write', 'vms:write', 'keys:manage', 'members:manage'],
  member: ['read', 'reservations:write', 'vms:write'],
  viewer: ['read'],
} as const satisfies Record<MembershipRole, readonly OperationScope[]>;

/** Every scope: what a principal of no role and no scopes holds (the platform's jobs, scheduled work). */
const everything: readonly OperationScope[] = operationScopes;

/**
 * What the principal may call (docs/product.md §2 Roles and scopes): its role's grants (a console
 * user), its scopes (an API key), or everything (the platform's jobs, scheduled work — allowed
 * when scheduled).
 */
export function grantsOf(principal: Principal): readonly OperationScope[] {
  if (principal.role) return roleGrants[principal.role];
  if (principal.scopes) return principal.scopes;
  return everything;
}

/** A sentence naming what the role allows, for a 403 and the console's hint. */
function roleRefusal(role: MembershipRole): string {
  return role === 'viewer'
    ? 'Your role in this org is viewer: you see what the org sees and take no action. An admin of the org can change your role.'
    : 'Your role in this org is member: members, API keys and webhooks are for the org’s admins.';
}

/**
 * Asserts that the principal may call an operation that needs `scope` (docs/product.md §2, §5
 * check order: right after authentication and the rate limit, before the body): an API key
 * without the scope is 403 `insufficient_scope` naming it; a console user whose role does not
 * grant it is 403 `forbidden`. What the org may do (its relation) is the verb's to judge, after.
 * @throws DomainError insufficient_scope, forbidden
 */
export function assertMayCall(principal: Principal, scope: OperationScope): void {
  if (principal.scopes && !principal.scopes.includes(scope as ApiKeyScope)) {
    throw new DomainError('insufficient_scope', `This API key lacks the "${scope}" scope this operation needs; create a key that holds it.`, { scope });
  }
  if (principal.role && !(roleGrants[principal.role] as readonly OperationScope[]).includes(scope))
    throw new DomainError('forbidden', roleRefusal(principal.role));
}

/**
 * The scopes a principal may give a new API key (docs/product.md §2: no key creates a key with a
 * scope it lacks): a key its own; an admin all four.
 */
export function grantableScopes(principal: Principal): ApiKeyScope[] {
  const mine = grantsOf(principal);
  return apiKeyScopes.filter((s) => mine.includes(s));
}

/**
 * Asserts that the principal may create a key holding `scopes` (docs/product.md §2).
 * @throws DomainError insufficient_scope naming the first scope it lacks.
 */
export function assertMayGrantScopes(principal: Principal, scopes: readonly ApiKeyScope[]): void {
  const grantable = grantableScopes(principal);
  const lacking = scopes.find((s) => !grantable.includes(s));
  if (lacking) throw new DomainError('insufficient_scope', `A key cannot create a key with a scope it lacks: this one lacks "${lacking}".`, { scope: lacking });
}

// 1. Relations ------------------------------------------------------------------------

/**
 * How the acting org stands to a node: the platform operator, or the org that owns it; and what
 * the principal's role or scopes let it call (`grantsOf`), so that every action rule judges both
 * (docs/product.md §2: an action needs the org's relation and the role). Absent: everything.
 */
export type NodeRelation = { operator: boolean; owner: boolean; grants?: readonly OperationScope[] };

/** Whether the relation's grants hold `scope` (absent grants hold everything). */
const granted = (rel: { grants?: readonly OperationScope[] }, scope: OperationScope) => rel.grants?.includes(scope) ?? true;

/** How the acting org stands to a reservation (docs/product.md §2's columns). */
export type ReservationRelation = NodeRelation & { managing: boolean; audience: boolean };

/**
 * How the acting org stands to a node (docs/product.md §2's columns).
 * @param node absent for actions on no node yet (registering one).
 */
export function nodeRelation(principal: Principal, node: { ownerOrgId: string } | null): NodeRelation {
  return { operator: isOperator(principal), owner: node?.ownerOrgId === principal.orgId, grants: grantsOf(principal) };
}

/**
 * How the acting org stands to a reservation on `node` (docs/product.md §2's columns): its
 * relation to the node, and whether the reservation names it as a managing org or in its audience.
 * @param r the reservation's org lists (a row, or anything of that shape).
 */
export function relationTo(
  principal: Principal,
  node: { ownerOrgId: string },
  r: { allowedOrgIds: readonly string[]; managingOrgIds: readonly string[] },
): ReservationRelation {
  return {
    ...nodeRelation(principal, node),
    managing: r.managingOrgIds.includes(principal.orgId),
    audience: r.allowedOrgIds.includes(principal.orgId),
  };
}

// 2. Actions: what a principal may do (writes; the only rules offered as buttons) ------

/**
 * What a rule governs (docs/architecture.md "The policy module"): a `write` changes something and
 * may be offered as a console button; a `read` decides what a principal may see. Every rule of an
 * action table is a write — a read's rule belongs under Visibility (3), and server/policy.test.ts
 * fails on a read in an action table; the `offered*Actions` never offer one either.
 */
export type RuleKind = 'read' | 'write';

/** An action the org may take but the principal's role or key may not (the transports refuse it first, §5 order). */
const NOT_GRANTED = 'Your role in this org, or this API key’s scopes, do not allow this action.';

const operatorOrOwner = (rel: NodeRelation) => rel.operator || rel.owner;
/** Release and reclaim: "being in the audience does not confer" them (§2). */
const marketManager = (rel: ReservationRelation) => rel.operator || rel.owner || rel.managing;
const ended = (status: ReservationStatus) => status === 'cancelled' || status === 'expired';

/** The reservation a rule is judged against: its id (for messages) and its status now. */
export type ReservationState = { id: string; status: ReservationStatus };

type ReservationRule = {
  kind: RuleKind;
  /** What the principal's role or key must grant (§2 Roles and scopes), beyond the org's relation. */
  scope: OperationScope;
  who: (rel: ReservationRelation) => boolean;
  forbidden: (r: ReservationState) => string;
  /** The 409 for a reservation whose status does not allow the action, else null. */
  when: (r: ReservationState) => DomainError | null;
  /** Offered by the console only then (beyond `who` and `when`): re-affirm only what needs it. */
  offeredWhen?: (r: ReservationState) => boolean;
};

function notEnded(what: string) {
  return (r: ReservationState) =>
    ended(r.status) ? new DomainError('reservation_not_active', `Reservation "${r.id}" is ${r.status}; ${what}.`, { reservationStatus: r.status }) : null;
}

/** Needs-review answers its own code: an operator must re-affirm it before anything is granted. */
function activeOnly(needsReview: string, notActive: string) {
  return (r: ReservationState) => {
    if (r.status === 'needs-review')
      return new DomainError('reservation_needs_review', `Reservation "${r.id}" needs review after a topology change; ${needsReview}.`, {
        reservationStatus: r.status,
      });
    if (r.status !== 'active')
      return new DomainError('reservation_not_active', `Reservation "${r.id}" is ${r.status}; ${notActive}.`, { reservationStatus: r.status });
    return null;
  };
}

/** Every action on a reservation, one rule each (docs/product.md §2, §5, §5.1–§5.4). */
export const reservationRules = {
  edit: {
    kind: 'write',
    scope: 'reservations:write',
    who: operatorOrOwner,
    forbidden: () => 'Only a platform operator or the node owner may edit this reservation.',
    when: notEnded('it can no longer be edited'),
  },
  cancel: {
    kind: 'write',
    scope: 'reservations:write',
    who: operatorOrOwner,
    forbidden: () => 'Only a platform operator or the node owner may cancel this reservation.',
    when: notEnded('it cannot be cancelled again'),
  },
  release: {
    kind: 'write',
    scope: 'reservations:write',
    who: marketManager,
    forbidden: () => 'Only a platform operator, the node owner or a managing org may release units; being in the audience does not confer it.',
    when: activeOnly('an operator must re-affirm it before units can be released', 'only active reservations can release units'),
  },
  reclaim: {
    kind: 'write',
    scope: 'reservations:write',
    who: marketManager,
    forbidden: () => 'Only a platform operator, the node owner or a managing org may reclaim units; being in the audience does not confer it.',
    // Pending, active and needs-review may be reclaimed: it only narrows exposure (§5.1 step 2).
    when: (r) =>
      ended(r.status)
        ? new DomainError(
            'reservation_not_reclaimable',
            `Reservation "${r.id}" is ${r.status}; only pending, active or needs-review reservations can be reclaimed.`,
            { reservationStatus: r.status },
          )
        : null,
  },
  reaffirm: {
    kind: 'write',
    scope: 'reservations:write',
    who: (rel) => rel.operator,
    forbidden: () => 'Only a platform operator may re-affirm reservations.',
    when: notEnded('there is nothing to re-affirm'),
    offeredWhen: (r) => r.status === 'needs-review',
  },
  placeReservedVm: {
    kind: 'write',
    scope: 'vms:write',
    who: (rel) => rel.audience,
    forbidden: (r) => `Only orgs in the audience (allowedOrgIds) of reservation "${r.id}" may place reserved-tier VMs on it.`,
    when: activeOnly('an operator must re-affirm it first', 'reserved-tier VMs need an active reservation'),
  },
} as const satisfies Record<string, ReservationRule>;

export type ReservationRuleName = keyof typeof reservationRules;
/** What the console may offer on a reservation (placing VMs is for schedulers, over the API). */
export const reservationActions = ['edit', 'cancel', 'release', 'reclaim', 'reaffirm'] as const satisfies readonly ReservationRuleName[];
export type ReservationAction = (typeof reservationActions)[number];

/**
 * Asserts one action on a reservation: first who (403), then its status (409), the order of
 * docs/product.md §5's checks (visibility, 404, is the caller's business before this).
 * @throws DomainError forbidden, or the rule's 409.
 */
export function assertReservationAction(action: ReservationRuleName, rel: ReservationRelation, r: ReservationState): void {
  const rule: ReservationRule = reservationRules[action];
  if (!rule.who(rel)) throw new DomainError('forbidden', rule.forbidden(r));
  if (!granted(rel, rule.scope)) throw new DomainError('forbidden', NOT_GRANTED);
  const refused = rule.when(r);
  if (refused) throw refused;
}

/**
 * Whether the verb would accept the action as far as who and status go (docs/product.md §2, §5),
 * without throwing: `assertReservationAction` as a boolean.
 */
export function canReservationAction(action: ReservationRuleName, rel: ReservationRelation, r: ReservationState): boolean {
  const rule: ReservationRule = reservationRules[action];
  return rule.who(rel) && granted(rel, rule.scope) && rule.when(r) === null;
}

/**
 * The actions the console offers on a reservation (docs/product.md §6): writes the verbs accept
 * (`canReservationAction`), and worth offering (`offeredWhen`).
 */
export function offeredReservationActions(rel: ReservationRelation, r: ReservationState): ReservationAction[] {
  return reservationActions.filter((a) => {
    const rule: ReservationRule = reservationRules[a];
    return rule.kind === 'write' && canReservationAction(a, rel, r) && (rule.offeredWhen?.(r) ?? true);
  });
}

type NodeRule = { kind: RuleKind; scope: OperationScope; who: (rel: NodeRelation) => boolean; forbidden: string };

/** Actions on a node, or (registerNode) on the fleet: who only (docs/product.md §2). */
export const nodeRules = {
  createReservation: {
    kind: 'write',
    scope: 'reservations:write',
    who: operatorOrOwner,
    forbidden: 'Only a platform operator or the node owner may create reservations on this node.',
  },
  registerNode: {
    kind: 'write',
    scope: 'reservations:write',
    who: (rel: NodeRelation) => rel.operator,
    forbidden: 'Only a platform operator may register nodes.',
  },
  changeTopology: {
    kind: 'write',
    scope: 'reservations:write',
    who: (rel: NodeRelation) => rel.operator,
    forbidden: 'Only a platform operator may change a node’s topology.',
  },
} as const satisfies Record<string, NodeRule>;
export type NodeAction = keyof typeof nodeRules;

/**
 * Asserts one action on a node, or on the fleet (docs/product.md §2).
 * @throws DomainError forbidden
 */
export function assertNodeAction(action: NodeAction, rel: NodeRelation): void {
  if (!nodeRules[action].who(rel)) throw new DomainError('forbidden', nodeRules[action].forbidden);
  if (!granted(rel, nodeRules[action].scope)) throw new DomainError('forbidden', NOT_GRANTED);
}

/** The node actions the console offers the principal (docs/product.md §6): the writes its relation allows. */
export function offeredNodeActions(rel: NodeRelation): NodeAction[] {
  return (Object.keys(nodeRules) as NodeAction[]).filter((a) => {
    const rule: NodeRule = nodeRules[a];
    return rule.kind === 'write' && rule.who(rel) && granted(rel, rule.scope);
  });
}

/** The VM a rule is judged against: whose it is, and whether it still runs. */
export type VmState = { orgId: string; status: string };

type VmRule = {
  kind: RuleKind;
  scope: OperationScope;
  who: (principal: Principal, vm: Pick<VmState, 'orgId'>) => boolean;
  forbidden: string;
  /** Offered by the console only then (beyond `who`). */
  offeredWhen?: (vm: VmState) => boolean;
};

/** Actions on a VM (docs/product.md §2, §5.3). */
export const vmRules = {
  // Its own org, or the operator; owners and managers evict through reclaim (§2). Terminating an
  // ended VM changes nothing, so the console offers it on a running one only.
  terminate: {
    kind: 'write',
    scope: 'vms:write',
    who: (principal, vm) => isOperator(principal) || vm.orgId === principal.orgId,
    forbidden: 'Only the VM’s own org or a platform operator may terminate it; to take units back, reclaim them.',
    offeredWhen: (vm) => vm.status === 'running',
  },
} as const satisfies Record<string, VmRule>;

/** What the console may offer on a VM. */
export type VmAction = keyof typeof vmRules;

/** Terminating a VM: its own org, or the operator; owners and managers evict through reclaim (docs/product.md §2). */
export function canTerminateVm(principal: Principal, vm: { orgId: string }): boolean {
  return vmRules.terminate.who(principal, vm) && grantsOf(principal).includes(vmRules.terminate.scope);
}

/**
 * What the console offers on a VM (docs/product.md §6): terminating it, where the API allows it
 * (a running VM of the org, any running one for the operator).
 */
export function offeredVmActions(principal: Principal, vm: VmState): VmAction[] {
  return (Object.keys(vmRules) as VmAction[]).filter((a) => {
    const rule: VmRule = vmRules[a];
    return rule.kind === 'write' && (rule.offeredWhen?.(vm) ?? true) && rule.who(principal, vm) && grantsOf(principal).includes(rule.scope);
  });
}

/**
 * Asserts that the principal may terminate the VM (docs/product.md §2).
 * @throws DomainError forbidden
 */
export function assertCanTerminateVm(principal: Principal, vm: { orgId: string }): void {
  if (!canTerminateVm(principal, vm)) throw new DomainError('forbidden', vmRules.terminate.forbidden);
}

/** Every action table, by the object it acts on: server/policy.test.ts checks each holds writes only. */
export const actionRules = { reservation: reservationRules, node: nodeRules, vm: vmRules } as const satisfies Record<
  string,
  Record<string, { kind: RuleKind }>
>;

// 3. Visibility: what a principal may see (every read's rule; never offered) ----------

// Reads only some principals may make at all (403 for the others).

/**
 * The org picker (`GET /v1/orgs`) is for those who may create reservations: the operator and
 * orgs that own a node (docs/product.md §2). Org names are not every tenant's business.
 * @throws DomainError forbidden
 */
export async function assertMayPickOrgs(ctx: Principal & { db: DbOrTx }): Promise<void> {
  if (isOperator(ctx)) return;
  const [owns] = await ctx.db
    .select({ one: sql<number>`1` })
    .from(nodes)
    .where(eq(nodes.ownerOrgId, ctx.orgId))
    .limit(1);
  if (!owns) throw new DomainError('forbidden', 'Only a platform operator or a node owner may search orgs (to reserve units for them).');
}

/**
 * Locked sign-ins (docs/product.md §9.3 "Unlock"): only the operator sees which accounts are locked
 * and lifts a lock — who is under attack is the platform's business, and a lock exists to stop
 * everyone else. One rule for both, like API keys' visibility below: there is nothing a principal
 * may see of a lock but not lift.
 * @throws DomainError forbidden
 */
export function assertMaySeeSignInLocks(principal: Principal): void {
  if (!isOperator(principal)) throw new DomainError('forbidden', 'Only a platform operator may see and lift sign-in locks.');
}

// What each principal sees of the rows it may read: SQL for lists, JS where a computed view needs it.

/**
 * Reading a reservation's scheduled reclaims (docs/product.md §5.6): those who may reclaim on it
 * (the operator, the node owner, a managing org). Its audience and the spot tenants learn the
 * deadline from the units and VMs (`reclaimAt`) and their notifications, never the schedule.
 * @throws DomainError forbidden
 */
export function assertMaySeeReclaimSchedules(rel: ReservationRelation, reservationId: string): void {
  if (!marketManager(rel)) {
    throw new DomainError(
      'forbidden',
      `Only a platform operator, the node owner or a managing org may see the scheduled reclaims of reservation "${reservationId}"; its audience sees each unit's reclaim time on the node.`,
    );
  }
}

/** Whether the user or key that scheduled a reclaim shows (its org always does to those who may read it): to the operator and the scheduler's own org (docs/product.md §5.6). */
export function maySeeScheduler(principal: Principal, schedule: { createdByOrgId: string }): boolean {
  return isOperator(principal) || principal.orgId === schedule.createdByOrgId;
}

/** A reservation shows to the operator, the node owner, its managing orgs and its audience (docs/product.md §2). */
export function maySeeReservation(rel: ReservationRelation): boolean {
  return rel.operator || rel.owner || rel.managing || rel.audience;
}

/**
 * Which org ids a principal may see named (docs/product.md §9.1 q): an org's name shows exactly
 * where its id already shows to the caller — a reservation's `allowedOrgIds` and
 * `managingOrgIds` to whoever may see the reservation, a node's owner to every signed-in
 * principal (`orgIdsNamedWithNode`), a VM's org where `maySeeVmOrg` (`orgIdsNamedWithVm`), an
 * audit event's actor where `auditActorShown` (`orgIdsNamedWithAuditEvent`) — and nowhere else,
 * so a name is never a way to learn an id, and the org search (`assertMayPickOrgs`) stays the
 * only way to find orgs by name.
 * @returns the org ids the reservation shows its reader (none to one who may not see it).
 */
export function orgIdsNamedWith(
  rel: ReservationRelation,
  r: { allowedOrgIds: readonly string[]; managingOrgIds: readonly string[] },
  node: { ownerOrgId: string },
): string[] {
  return maySeeReservation(rel) ? [...new Set([...r.allowedOrgIds, ...r.managingOrgIds, node.ownerOrgId])] : [];
}

/** The org a node names (§9.1 q): its owner, whose id every signed-in principal sees with the node (§2). */
export function orgIdsNamedWithNode(node: { ownerOrgId: string }): string[] {
  return [node.ownerOrgId];
}

/** The org a VM names (§9.1 q): its own, to the operator and that org only (`maySeeVmOrg`: tenant identity is private). */
export function orgIdsNamedWithVm(principal: Principal, vm: { orgId: string }): string[] {
  return maySeeVmOrg(principal, vm) ? [vm.orgId] : [];
}

/**
 * The org an audit event names (§9.1 q): its actor, only where its id shows.
 * @param actorShown the row's `auditActorShown` (SQL: the rule needs the event's node and reservation).
 */
export function orgIdsNamedWithAuditEvent(actorShown: boolean, event: { actorOrgId: string }): string[] {
  return actorShown ? [event.actorOrgId] : [];
}

/** The same rule (`maySeeReservation`) as SQL over `reservations` on one node: undefined when the caller sees them all. */
export function reservationVisibleTo(principal: Principal, node: { ownerOrgId: string }): SQL | undefined {
  if (isOperator(principal) || node.ownerOrgId === principal.orgId) return undefined;
  return or(arrayContains(reservations.allowedOrgIds, [principal.orgId]), arrayContains(reservations.managingOrgIds, [principal.orgId]));
}

/**
 * SQL over a reservation aliased `r` (the node list's filters, server/nodes/list.ts): the acting
 * org manages it (`managingOrgIds`) or may use it (`allowedOrgIds`) — its own standing, so no
 * reservation it may not see is learnt of (docs/product.md §2).
 */
export function aliasedReservationNames(principal: Principal, list: 'managing' | 'audience'): SQL {
  return sql`r.${sql.raw(list === 'managing' ? 'managing_org_ids' : 'allowed_org_ids')} @> array[${principal.orgId}]::text[]`;
}

/** SQL over a reservation aliased `r` on the listed `nodes` row: the principal may see it (§2; `reservationVisibleTo` across nodes). */
export function aliasedReservationVisibleTo(principal: Principal): SQL | undefined {
  if (isOperator(principal)) return undefined;
  return sql`(${nodes.ownerOrgId} = ${principal.orgId} or ${aliasedReservationNames(principal, 'audience')} or ${aliasedReservationNames(principal, 'managing')})`;
}

/**
 * SQL over the listed `nodes` row, a precondition of seeing any of its reservations
 * (`aliasedReservationVisibleTo`) that costs no read of them: the principal owns the node, or
 * some reservation names it at all (reservation_orgs, read once per statement: the first key of
 * its primary key, so PostgreSQL reads it by index whatever plan it caches). Undefined for the
 * operator. The needs-review filter tests it before it probes each changed node's reservations:
 * an owner named on no reservation no longer reads the reservations of every changed node of the
 * fleet (2,000 at 100,000 nodes: 9,599 buffers, 24 ms → 1,251 buffers; docs/performance.md).
 */
export function mayStandToReservationsOn(principal: Principal): SQL | undefined {
  if (isOperator(principal)) return undefined;
  const me = principal.orgId;
  const named = sql`(select g.org_id from ${reservationOrgs} g where g.org_id = ${me} order by g.org_id, g.role, g.node_id, g.reservation_id limit 1) is not null`;
  return sql`(${nodes.ownerOrgId} = ${me} or ${named})`;
}

/** SQL: the listed node is the acting org's own. */
export function nodeOwnedBy(principal: Principal): SQL {
  return eq(nodes.ownerOrgId, principal.orgId);
}

/** SQL aggregates over `reservations`: whether the acting org manages / may use one of them (the fleet's relation badges). */
export function actingOrgStanding(principal: Principal): { manages: SQL<boolean>; uses: SQL<boolean>; either: SQL } {
  const managing = arrayContains(reservations.managingOrgIds, [principal.orgId]);
  const audience = arrayContains(reservations.allowedOrgIds, [principal.orgId]);
  return { manages: sql<boolean>`bool_or(${managing})`, uses: sql<boolean>`bool_or(${audience})`, either: or(managing, audience)! };
}

/**
 * Whether a reservation the acting org stands to as `rel` is listed for `role` (JS form of
 * `reservationListedFor`; the roles are server/reservations/roles.ts, docs/product.md §5).
 */
export function listsReservation(rel: ReservationRelation, role: ReservationRole): boolean {
  if (role === 'audience') return rel.audience;
  if (role === 'managing') return rel.managing;
  return maySeeReservation(rel);
}

/**
 * The same rule as SQL over `reservations` on any node, for one page: undefined when every row
 * is listed (the operator, role `any`). The caller keeps its own cursor, `ORDER BY (node_id, id)`
 * and `LIMIT` (`after` and `limit` here only bound the work).
 *
 * Each relation is a branch in page order after the cursor, cut at `limit`: the owner's nodes'
 * reservations (nodes_owner_idx or nodes_pkey, then the primary key (node_id, id)), and the
 * reservations naming the org in allowedOrgIds or managingOrgIds — a range of reservation_orgs'
 * primary key (org, role, node_id, reservation_id), already in page order (migration 0017).
 * Role `audience` or `managing` is its one branch; role `any` the union of all three, at most
 * 3 × `limit` keys, cut again. As one predicate (or a union of uncut branches) PostgreSQL must
 * gather every reservation the org may see before the ordered `LIMIT` — an audience org of
 * 10,008 reservations paid for all of them on every page; and the arrays' GIN indexes cannot
 * give page order, while PostgreSQL estimates an org the arrays never name at 0.5 % of them and
 * so walked every reservation in page order looking for it (114 ms at 100,000 nodes;
 * docs/performance.md). So the cost follows the page, not what the org may see, nor the fleet
 * (server/reservations/list-across.test.ts checks the plans).
 * @param after the cursor's (nodeId, id), exclusive.
 * @param narrow the list's own filters over a reservations alias (`reservations` outside), put
 *   inside each branch too, so that a branch's page is a page of matching rows; the caller
 *   still applies them outside.
 */
export function reservationListedFor(
  principal: Principal,
  role: ReservationRole,
  after: readonly [string, string] | undefined,
  limit: number,
  narrow: (alias: string) => SQL | undefined = () => undefined,
): SQL | undefined {
  const me = principal.orgId;
  if (role === 'any' && isOperator(principal)) return undefined;
  // Each branch's cursor and page order, on its own alias.
  const cursorOf = (alias: string) => {
    const own = narrow(alias);
    const cursor = after ? sql` and (${sql.raw(alias)}.node_id, ${sql.raw(alias)}.id) > (${after[0]}, ${after[1]})` : sql``;
    return own ? sql`${cursor} and ${own}` : cursor;
  };
  const page = (alias: string) => sql`${cursorOf(alias)} order by ${sql.raw(alias)}.node_id, ${sql.raw(alias)}.id limit ${limit}`;
  // The reservations naming the org as `named`, read in page order from reservation_orgs.
  const naming = (named: 'audience' | 'managing', alias: string) =>
    sql`(select ${sql.raw(alias)}.node_id, ${sql.raw(alias)}.id from ${reservationOrgs} ro
      join reservations ${sql.raw(alias)} on ${sql.raw(alias)}.node_id = ro.node_id and ${sql.raw(alias)}.id = ro.reservation_id
      where ro.org_id = ${me} and ro.role = ${named}${page(alias)})`;
  const listed = (branches: SQL) => sql`(${reservations.nodeId}, ${reservations.id}) in (select u.node_id, u.id from (${branches}) u)`;
  if (role === 'audience') return listed(naming('audience', 'a'));
  if (role === 'managing') return listed(naming('managing', 'm'));
  return sql`(${reservations.nodeId}, ${reservations.id}) in (select u.node_id, u.id from (
    (select o.node_id, o.id from reservations o join ${nodes} n on n.id = o.node_id where n.owner_org_id = ${me}${page('o')})
    union ${naming('audience', 'a')}
    union ${naming('managing', 'm')}
  ) u order by u.node_id, u.id limit ${limit})`;
}

/**
 * SQL condition: the principal may see this VM's id and units (docs/product.md §2): the operator all;
 * the node owner those on its nodes; a managing org those that ran on a unit of a
 * (non-cancelled) reservation it manages while that reservation held it — the VM's run
 * [startedAt, terminatedAt or now) meets the period [startsAt, endsAt) from the reservation's
 * `createdAt` on (§9 f: a reservation created later, even one starting a little in the past,
 * shows nothing that ended before it existed); everyone their own.
 */
export function vmVisibleTo(principal: Principal, now: Date): SQL | undefined {
  if (isOperator(principal)) return undefined;
  return sql`(${vms.orgId} = ${principal.orgId}
    or exists (select 1 from ${nodes} n where n.id = ${vms.nodeId} and n.owner_org_id = ${principal.orgId})
    or exists (
      select 1 from vm_units vu
      join reservation_units ru on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and not ru.cancelled
      join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
      where vu.vm_id = ${vms.id} and ${principal.orgId} = any(r.managing_org_ids)
        and greatest(ru.starts_at, r.created_at) < coalesce(${vms.terminatedAt}, ${now.toISOString()}::timestamptz)
        and (ru.ends_at is null or ru.ends_at > ${vms.startedAt})))`;
}

/**
 * The JS form of `vmVisibleTo` for a VM running now on a node's unit (the grid's `vmId`, and
 * `unit_occupied`'s `vmIds`): a running VM's run covers now, so "ran on a unit of a reservation
 * it manages while that reservation held it" is "the unit's current reservation is managed by
 * the caller" (`managesCurrentHold`). Tested equal to the SQL (server/policy.test.ts).
 */
export function maySeeRunningVm(principal: Principal, node: { ownerOrgId: string }, vm: { orgId: string }, managesCurrentHold: boolean): boolean {
  return isOperator(principal) || node.ownerOrgId === principal.orgId || vm.orgId === principal.orgId || managesCurrentHold;
}

/** Which org owns a VM shows only to the operator and to that org (§2: tenant identity is private). */
export function maySeeVmOrg(principal: Principal, vm: { orgId: string }): boolean {
  return isOperator(principal) || vm.orgId === principal.orgId;
}

/**
 * Who sees an audit event: the operator all; a node owner those on its nodes; a managing org
 * those of reservations it manages; everyone its own actions (§2 "read the audit trail": a
 * filtered list, never 403). An org-level event has no node and no reservation, so only the
 * operator and the actor's org see it; a system actor's is the platform's own, so the
 * operator's alone. `auditVisibleSeqs` is the same rule in SQL.
 */
export function maySeeAuditEvent(
  principal: Principal,
  event: { actorOrgId: string; nodeOwnerOrgId: string | null; managingOrgIds: readonly string[] | null },
): boolean {
  const me = principal.orgId;
  return isOperator(principal) || event.actorOrgId === me || event.nodeOwnerOrgId === me || (event.managingOrgIds ?? []).includes(me);
}

/**
 * SQL: the `seq` of the newest `limit` audit events the principal may see among those matching
 * `where` (`maySeeAuditEvent`), or undefined for the operator, who sees all. The rule is an OR
 * over three relations; as one predicate under `ORDER BY seq DESC LIMIT` PostgreSQL could only
 * walk the whole table testing each row, so each relation is its own index-driven branch —
 * the actor's events (`audit_actor_idx`), events on nodes it owns (`nodes_owner_idx`, then
 * `audit_node_idx`), events of reservations it manages (reservation_orgs' primary key, then
 * `audit_reservation_idx`) — each newest first and cut at `limit`, so a principal who sees few
 * events reads few rows. The managing branch reads reservation_orgs rather than the array's GIN
 * index: PostgreSQL estimates an org the array never names at 0.5 % of the reservations, and at
 * 100,000 nodes that estimate made it start a parallel worker for an empty branch (≈ 10 ms of a
 * 20 ms statement, docs/performance.md). The caller keeps its own `ORDER BY seq DESC LIMIT` over
 * the union.
 * @param where filters on `audit_events` columns (node, reservation, action, period, cursor).
 */
export function auditVisibleSeqs(principal: Principal, where: SQL | undefined, limit: number): SQL | undefined {
  if (isOperator(principal)) return undefined;
  const me = principal.orgId;
  const also = where ? sql` and ${where}` : sql``;
  const newest = sql` order by ${auditEvents.seq} desc limit ${limit}`;
  return sql`(
    (select ${auditEvents.seq} from ${auditEvents} where ${auditEvents.actorOrgId} = ${me}${also}${newest})
    union all
    (select ${auditEvents.seq} from ${auditEvents} join ${nodes} on ${nodes.id} = ${auditEvents.nodeId} where ${nodes.ownerOrgId} = ${me}${also}${newest})
    union all
    (select ${auditEvents.seq} from ${auditEvents} join ${reservationOrgs} on ${reservationOrgs.nodeId} = ${auditEvents.nodeId} and ${reservationOrgs.reservationId} = ${auditEvents.reservationId}
      where ${reservationOrgs.orgId} = ${me} and ${reservationOrgs.role} = 'managing'${also}${newest})
  )`;
}

/**
 * SQL: whether the principal may see one audit event (`maySeeAuditEvent`), as a condition on an
 * `audit_events` row alone — for the one row a list cursor names, so that a cursor naming an
 * event the caller may not see is refused like one naming no event (§8 R6); undefined for the
 * operator, who sees all. Lists use `auditVisibleSeqs`, the same rule shaped for a page.
 */
export function auditEventVisibleTo(principal: Principal): SQL | undefined {
  if (isOperator(principal)) return undefined;
  const me = principal.orgId;
  return sql`(${auditEvents.actorOrgId} = ${me}
    or exists (select 1 from ${nodes} n where n.id = ${auditEvents.nodeId} and n.owner_org_id = ${me})
    or exists (select 1 from ${reservations} r where r.node_id = ${auditEvents.nodeId} and r.id = ${auditEvents.reservationId} and r.managing_org_ids @> array[${me}]::text[]))`;
}

/**
 * SQL: whether an event's `actorOrgId` shows — to the operator, to the actor itself, and when
 * the actor is the platform, the node owner or a managing org of the event's reservation; a
 * tenant's own actions show to others without it (§2).
 */
export function auditActorShown(principal: Principal): SQL<boolean> {
  if (isOperator(principal)) return sql<boolean>`true`;
  const me = principal.orgId;
  return sql<boolean>`(${auditEvents.actorOrgId} = ${me} or ${auditEvents.actorOrgId} = ${platformOrgId()} or ${auditEvents.actorOrgId} = ${nodes.ownerOrgId} or ${auditEvents.actorOrgId} = any(coalesce(${reservations.managingOrgIds}, '{}')))`;
}

/**
 * Notifications are the acting org's own: it lists them and marks them read; another org's —
 * for the operator too — answers 404 like an unknown id (docs/product.md §2).
 */
export function notificationsVisibleTo(principal: Principal): SQL {
  return eq(notifications.orgId, principal.orgId);
}

/**
 * Events are the acting org's own feed (docs/product.md §5.7): each was addressed to its
 * recipients, with the fields each may see, when it was written (server/events/catalog.ts), so
 * reading is only "this org's copies". Nobody, the operator included, reads another org's feed.
 */
export function eventsVisibleTo(principal: Principal): SQL {
  return eq(events.orgId, principal.orgId);
}

/**
 * Webhook endpoints are per org, like API keys (docs/product.md §2, §5.7): every principal of an
 * org lists, creates, changes and deletes that org's endpoints and no other's — the one rule is
 * both the visibility and the permission, so another org's endpoint is 404, the operator's call
 * included.
 */
export function webhooksVisibleTo(principal: Principal): SQL {
  return eq(webhookEndpoints.orgId, principal.orgId);
}

/**
 * An org's members and invitations (docs/product.md §2 Members) are its own: its admins list and
 * change them (the operations' `members:manage` scope), and no other org's — the operator's
 * included: another org's member answers 404 like an unknown one.
 */
export function membersVisibleTo(principal: Principal): SQL {
  return eq(memberships.orgId, principal.orgId);
}

/** The acting org's invitations (docs/product.md §2 Members), as `membersVisibleTo`. */
export function invitesVisibleTo(principal: Principal): SQL {
  return eq(memberInvites.orgId, principal.orgId);
}

/**
 * API keys are per org (docs/product.md §2 "manage the org's API keys"): every principal of an
 * org — a console user or one of its keys — lists, creates and revokes that org's keys and no
 * other's. This one rule is both the visibility and the permission: there is nothing a
 * principal may see of a key but not act on, so another org's key answers 404, never 403, and
 * the operator is no exception (it manages the platform org's own keys).
 */
export function apiKeysVisibleTo(principal: Principal): SQL {
  return eq(apiKeys.orgId, principal.orgId);
}

/**
 * SQL over `unit_intervals` aliased `i`: the rows of the reservations the acting org stands to
 * as `relation` (docs/product.md §5.8 Utilisation; §2's columns) — `owner`: every reservation on
 * the nodes it owns; `manager` / `audience`: those naming it in managingOrgIds / allowedOrgIds;
 * `fleet`: every reservation, the platform operator's only (null to anyone else). Each names
 * `i.node_id` and `i.reservation_id` so the index (node_id, reservation_id, kind) serves it.
 */
export function utilisationScope(principal: Principal, relation: 'owner' | 'manager' | 'audience' | 'fleet'): SQL | null {
  const me = principal.orgId;
  switch (relation) {
    case 'fleet':
      return isOperator(principal) ? sql`i.reservation_id is not null` : null;
    case 'owner':
      return sql`i.node_id in (select n.id from ${nodes} n where n.owner_org_id = ${me}) and i.reservation_id is not null`;
    case 'manager':
      return sql`(i.node_id, i.reservation_id) in (select r.node_id, r.id from ${reservations} r where r.managing_org_ids @> array[${me}]::text[])`;
    case 'audience':
      return sql`(i.node_id, i.reservation_id) in (select r.node_id, r.id from ${reservations} r where r.allowed_org_ids @> array[${me}]::text[])`;
  }
}

/**
 * Which relations the acting org has (docs/product.md §5.8 Utilisation): `owner` when it owns a
 * node, `manager` / `audience` when a reservation names it so, `fleet` for the operator.
 */
export async function utilisationRelationsOf(
  db: DbOrTx,
  principal: Principal,
): Promise<{ owner: boolean; manager: boolean; audience: boolean; fleet: boolean }> {
  const me = principal.orgId;
  const [row] = await db.execute<{ owner: boolean; manager: boolean; audience: boolean }>(sql`select
    exists (select 1 from ${nodes} n where n.owner_org_id = ${me}) as owner,
    exists (select 1 from ${reservations} r where r.managing_org_ids @> array[${me}]::text[]) as manager,
    exists (select 1 from ${reservations} r where r.allowed_org_ids @> array[${me}]::text[]) as audience`);
  return { owner: Boolean(row?.owner), manager: Boolean(row?.manager), audience: Boolean(row?.audience), fleet: isOperator(principal) };
}

/**
 * SQL over a `unit_intervals` row joined to its `reservations` row (left join, unaliased): the
 * principal may see that reservation (`maySeeReservation`, docs/product.md §2, §5.8) — a
 * reservation's intervals are its own. A row with no reservation (a VM on a free unit) fails it.
 * Undefined when the caller sees every reservation on the node (the operator, the node owner).
 */
export function intervalReservationVisibleTo(principal: Principal, node: { ownerOrgId: string }): SQL | undefined {
  const visible = reservationVisibleTo(principal, node);
  return visible && sql`(${reservations.id} is not null and ${visible})`;
}

/**
 * SQL over the node's `reclaim_schedules` joined to their `reservations` row: the principal may
 * read that reservation's scheduled reclaims (`assertMaySeeReclaimSchedules`, docs/product.md
 * §5.6): the operator, the node owner, a managing org. Undefined when it may read them all.
 */
export function reclaimSchedulesVisibleTo(principal: Principal, node: { ownerOrgId: string }): SQL | undefined {
  if (isOperator(principal) || node.ownerOrgId === principal.orgId) return undefined;
  return arrayContains(reservations.managingOrgIds, [principal.orgId]);
}
