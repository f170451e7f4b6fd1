/**
 * The one table of events (docs/product.md §5.7): every event type, the fields of its `data`, and
 * which recipient roles receive it with which of those fields — the privacy rules of §2 applied at
 * write time. An event is addressed to the orgs that stand to its subject then: an org added to a
 * reservation's `managingOrgIds` later never receives what happened before.
 *
 * Names follow one rule, `<entity>.<past-tense verb>`; the events a change of the audit trail
 * writes are mapped from its audit action in `auditEventTypes`, the others are named where they
 * happen (a reclaim's `vm.reclaimed` per VM it ended, a topology change's
 * `reservation.needs_review`, a scheduled reclaim's notices, the job runner's `reservation.started`
 * and `reservation.expired`).
 */
import type { AuditAction } from '@/db/schema';
import { reclaimNoticeChanges, reclaimScheduleLapses, vmTiers } from '@/db/schema';
import { z } from 'zod';

// Response-only schemas (server/openapi/schemas.ts renders them into the document).
const Id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
const Ids = z.array(Id);
const Timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds and `Z`.' });
const UnitIds = Ids.meta({ description: "Unit ids, in the node's unit order." });
const Reason = z.string().optional().meta({ description: 'The reason given with the change, if any.' });

const onNode = { nodeId: Id.meta({ description: 'The node it happened on.' }) };
const onReservation = { ...onNode, reservationId: Id.meta({ description: 'The reservation (unique per node).' }) };
const vmFields = {
  vmId: Id,
  nodeId: Id,
  unitIds: Ids.meta({ description: "The VM's units, in the node's unit order." }),
  orgId: Id.optional().meta({ description: "The VM's org: to the operator and that org only (tenant identity is private)." }),
};
const scheduleFields = {
  ...onReservation,
  scheduleId: Id,
  unitIds: Ids.meta({ description: 'The units the schedule names now.' }),
  at: Timestamp.meta({ description: 'When the reclaim is (or was) to run.' }),
};

/** Who receives an event (docs/product.md §2's columns, plus the VM's own org, and the org whose own thing it is — its webhook). */
export const recipientRoles = ['operator', 'owner', 'managing', 'audience', 'tenant', 'org'] as const;
export type RecipientRole = (typeof recipientRoles)[number];

/** What a role receives of an event's data: every field, or all but some. */
type Share = 'all' | { without: readonly string[] };

type EventSpec = { description: string; data: z.ZodObject; to: Partial<Record<RecipientRole, Share>> };

const reservationEvent = (description: string, data: z.ZodRawShape): EventSpec => ({
  description,
  data: z.strictObject({ ...onReservation, ...data }),
  // A reservation's own fields show in full to every principal that may see it (§2).
  to: { operator: 'all', owner: 'all', managing: 'all', audience: 'all' },
});

const scheduleEvent = (description: string, data: z.ZodRawShape = {}): EventSpec => ({
  description,
  data: z.strictObject({ ...scheduleFields, ...data }),
  // Scheduled reclaims show to those who may reclaim (§5.6); the audience and the tenants learn
  // of them from the units and their own vm.reclaim_scheduled.
  to: { operator: 'all', owner: 'all', managing: 'all' },
});

const vmEvent = (description: string, data: z.ZodRawShape): EventSpec => ({
  description,
  data: z.strictObject({ ...vmFields, ...data }),
  // The node owner sees every VM on its nodes, and a managing org those on the units its
  // reservations hold (its grid shows them), but neither whose it is (§2).
  to: { operator: 'all', owner: { without: ['orgId'] }, managing: { without: ['orgId'] }, tenant: 'all' },
});

/**
 * Every event type: its data and its recipients (docs/product.md §5.7 "Who receives what").
 * `to` lists the roles that receive it; a field a role may not see is left out of its copy, so
 * every such field is optional in `data`. An org in several roles receives one copy with the
 * fields of each.
 */
export const eventCatalog = {
  'node.registered': {
    description: 'An operator registered a node.',
    data: z.strictObject({ ...onNode, name: z.string(), ownerOrgId: Id, unitIds: UnitIds, topologyGen: z.number().int() }),
    to: { operator: 'all', owner: 'all' },
  },
  'node.topology_changed': {
    description: "An operator replaced a node's units (its topologyGen moved).",
    data: z.strictObject({
      ...onNode,
      unitIds: UnitIds.meta({ description: 'The units after the change.' }),
      fromGen: z.number().int(),
      toGen: z.number().int(),
      added: Ids,
      removed: Ids,
      changed: Ids,
    }),
    to: { operator: 'all', owner: 'all' },
  },
  'reservation.created': reservationEvent('A reservation was created.', {
    unitIds: UnitIds,
    allowedOrgIds: Ids,
    managingOrgIds: Ids,
    startsAt: Timestamp,
    endsAt: Timestamp.optional(),
    reason: Reason,
  }),
  'reservation.updated': reservationEvent('A reservation was edited (audience, managers, end, contract reference, or shrunk).', {
    unitIds: UnitIds.meta({ description: 'The reserved units after the change.' }),
    changes: z
      .strictObject({
        allowedOrgIds: Ids.optional(),
        managingOrgIds: Ids.optional(),
        endsAt: Timestamp.nullable().optional().meta({ description: 'The new end; null: open-ended now.' }),
        contractRef: z.string().nullable().optional().meta({ description: 'The new contract reference; null: removed.' }),
        removedUnitIds: Ids.optional(),
      })
      .meta({ description: 'Only the fields that changed, with their new values.' }),
    reason: Reason,
  }),
  'reservation.cancelled': reservationEvent('A reservation was cancelled.', {
    unitIds: UnitIds,
    previousStatus: z.string(),
    reason: Reason,
  }),
  'reservation.released': reservationEvent('Reserved units went on the spot market.', {
    unitIds: UnitIds.meta({ description: 'The units the release named.' }),
    released: UnitIds.meta({ description: 'Those that were not on the market yet.' }),
    reason: Reason,
  }),
  'reservation.reclaimed': {
    description: 'Units came back from the spot market; the spot VMs on them ended (vm.reclaimed each).',
    data: z.strictObject({
      ...onReservation,
      unitIds: UnitIds.meta({ description: 'The units the reclaim named.' }),
      terminated: Ids.optional().meta({ description: 'The spot VMs it terminated; not to the audience.' }),
      skipped: Ids.optional().meta({ description: 'The VMs it left running; not to the audience.' }),
      scheduleId: Id.optional().meta({ description: 'The scheduled reclaim it ran, if it was one; not to the audience.' }),
      reason: Reason,
    }),
    // The audience sees the reservation, not the VMs of others on it (§2).
    to: { operator: 'all', owner: 'all', managing: 'all', audience: { without: ['terminated', 'skipped', 'scheduleId'] } },
  },
  'reservation.needs_review': reservationEvent('A topology change put the reservation in needs-review: it withholds its units until re-affirmed.', {
    fromGen: z.number().int(),
    topologyGen: z.number().int(),
  }),
  'reservation.reaffirmed': reservationEvent("An operator re-affirmed the reservation against the node's topology.", {
    unitIds: UnitIds,
    fromGen: z.number().int(),
    toGen: z.number().int(),
    status: z.string(),
    reason: Reason,
  }),
  'reservation.started': reservationEvent("The clock passed the reservation's startsAt.", { unitIds: UnitIds, startsAt: Timestamp }),
  'reservation.expired': reservationEvent("The clock passed the reservation's endsAt.", { unitIds: UnitIds, endsAt: Timestamp }),
  'reclaim_schedule.created': scheduleEvent('A reclaim was scheduled.', { reason: Reason }),
  'reclaim_schedule.updated': scheduleEvent('A scheduled reclaim moved, or units that left the reservation left it.', {
    previousAt: Timestamp.optional(),
    droppedUnitIds: Ids.optional(),
  }),
  'reclaim_schedule.cancelled': scheduleEvent('A scheduled reclaim was cancelled.'),
  'reclaim_schedule.lapsed': scheduleEvent('A scheduled reclaim can no longer run.', { lapseReason: z.enum(reclaimScheduleLapses) }),
  'reclaim_schedule.done': scheduleEvent('A scheduled reclaim ran (reservation.reclaimed tells what it did).', {
    terminated: Ids,
    skipped: Ids,
  }),
  'vm.placed': vmEvent('A VM started.', {
    tier: z.enum(vmTiers),
    reservationId: Id.optional().meta({ description: 'A reserved-tier VM: the reservation it runs on.' }),
  }),
  'vm.terminated': vmEvent('A VM was terminated by its org (or the operator).', {
    tier: z.enum(vmTiers),
    reservationId: Id.optional(),
  }),
  'vm.reclaimed': {
    description: "A spot VM ended because its units' holder reclaimed them.",
    data: z.strictObject({
      ...vmFields,
      terminatedAt: Timestamp,
      reservationId: Id.optional().meta({ description: 'The reservation that reclaimed; never to the tenant (the holder stays private).' }),
      reason: Reason,
    }),
    to: { operator: 'all', owner: { without: ['orgId'] }, tenant: { without: ['reservationId'] } },
  },
  'vm.reclaim_scheduled': {
    description: "A reclaim of a running spot VM's units was scheduled, moved, or will no longer come (change).",
    data: z.strictObject({
      ...vmFields,
      change: z.enum(reclaimNoticeChanges),
      reclaimAt: Timestamp,
      notBefore: Timestamp.meta({ description: 'Nothing happens to the VM before this time.' }),
      previousAt: Timestamp.optional(),
      reason: Reason,
    }),
    // The tenant's notice; the holder and the schedule stay private (§5.6).
    to: { operator: 'all', tenant: 'all' },
  },
  'webhook.disabled': {
    description: 'One of the org’s webhook endpoints was disabled after 24 h of failed deliveries.',
    data: z.strictObject({
      webhookId: Id,
      url: z.string(),
      failingSince: Timestamp.meta({ description: 'When its run of failures began.' }),
      lastError: z.string().optional().meta({ description: 'What the last attempt came to.' }),
    }),
    // The org's own endpoint: nobody else, the operator included, sees an org's webhooks.
    to: { org: 'all' },
  },
} as const satisfies Record<string, EventSpec>;

export type EventType = keyof typeof eventCatalog;
export const eventTypes = Object.keys(eventCatalog) as EventType[];

/** An event's data as its type declares it (every recipient's copy is a subset). */
export type EventData<T extends EventType = EventType> = z.infer<(typeof eventCatalog)[T]['data']>;

/**
 * The one mapping from audit actions to the event each writes (docs/product.md §5.7): `null` for
 * the org-level actions, which tell no one but the audit trail.
 */
export const auditEventTypes = {
  'node.register': 'node.registered',
  'node.topology': 'node.topology_changed',
  'reservation.create': 'reservation.created',
  'reservation.update': 'reservation.updated',
  'reservation.cancel': 'reservation.cancelled',
  'reservation.release': 'reservation.released',
  'reservation.reclaim': 'reservation.reclaimed',
  'reservation.reaffirm': 'reservation.reaffirmed',
  'vm.place': 'vm.placed',
  'vm.terminate': 'vm.terminated',
  'reclaim_schedule.create': 'reclaim_schedule.created',
  'reclaim_schedule.update': 'reclaim_schedule.updated',
  'reclaim_schedule.cancel': 'reclaim_schedule.cancelled',
  'reclaim_schedule.lapse': 'reclaim_schedule.lapsed',
  'api_key.create': null,
  'api_key.revoke': null,
  'sign_in.lockout': null,
  'sign_in.unlock': null,
  'webhook.create': null,
  'webhook.update': null,
  'webhook.delete': null,
  'webhook.rotate_secret': null,
  'member.invite': null,
  'member.join': null,
  'member.role': null,
  'member.remove': null,
} as const satisfies Record<AuditAction, EventType | null>;

/**
 * The fields `roles` may see of an event of `type`: the union of each role's share (an org in
 * several columns has the rights of each, §2), or null when none of them receives it.
 */
export function fieldsFor(type: EventType, roles: Iterable<RecipientRole>): Set<string> | null {
  const spec: EventSpec = eventCatalog[type];
  const all = Object.keys(spec.data.shape);
  let fields: Set<string> | null = null;
  for (const role of roles) {
    const share = spec.to[role];
    if (!share) continue;
    fields ??= new Set();
    const hidden = share === 'all' ? [] : share.without;
    for (const f of all) if (!hidden.includes(f)) fields.add(f);
  }
  return fields;
}

type EventMember = z.ZodObject<{ id: z.ZodString; type: z.ZodLiteral<EventType>; at: typeof Timestamp; data: z.ZodType<Record<string, unknown>> }>;

/**
 * One event as the feed answers it and a webhook delivers it (docs/product.md §5.7): the
 * recipient's copy of the data. One member per type, so the document shows each type's payload.
 */
export const Event = z
  .discriminatedUnion(
    'type',
    eventTypes.map((type) =>
      z
        .strictObject({
          id: z.string().meta({ description: "The event's id: the same in every recipient's copy, and a webhook delivery's webhook-id." }),
          type: z.literal(type),
          at: Timestamp.meta({ description: 'When it happened.' }),
          data: eventCatalog[type].data,
        })
        .meta({ id: `Event.${type}`, description: eventCatalog[type].description }),
    ) as unknown as [EventMember, ...EventMember[]],
  )
  .meta({ id: 'Event' });

/** An event as the feed answers it. */
export type EventView = { id: string; type: EventType; at: string; data: Record<string, unknown> };
