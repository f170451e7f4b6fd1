/**
 * Zod schemas of the public REST API's RESPONSE objects (docs/product.md §5 Objects, Errors, Lists;
 * docs/product.md §5.1a). They exist only to be rendered into /v1/openapi.json: the verbs
 * build their answers as plain TypeScript objects, so every schema here is pinned to the type
 * the verb returns by a compile-time check at the bottom of this file, which fails `tsc` as
 * soon as either side gains, loses or re-types a field.
 *
 * Objects are strict (`additionalProperties: false`): the answers carry exactly these fields, and
 * document.test.ts parses live answers with these schemas to prove it.
 *
 * Request schemas are NOT here: the document uses the very schemas the routes validate with.
 */
import {
  auditActions,
  auditVias,
  reclaimNoticeChanges,
  reclaimScheduleLapses,
  reclaimScheduleStatuses,
  unitIntervalEnds,
  unitIntervalKinds,
  vmTiers,
  apiKeyScopes,
} from '@/db/schema';
import { z } from 'zod';
import type { OrgSummary as OrgSummaryType } from '../orgs/search';
import type { ApiKeyView, CreatedApiKeyView } from '../api-keys/view';
import { auditDetails } from '../audit/details';
import type { AuditEventView } from '../audit/view';
import { errorTable, problemExtrasOf, problemType, type ErrorCode, type Problem as ProblemType, type ProblemExtraName } from '../errors';
import { Event, type EventView } from '../events/catalog';
import type { EventPage as EventPageType } from '../events/feed';
import { unitStates, type UnitView } from '../nodes/unit-states';
import type { UnitDetailView } from '../nodes/get-unit';
import type { NodeTimeline as NodeTimelineType } from '../nodes/timeline';
import type { NodeView } from '../nodes/view';
import type { NotificationView } from '../notifications/view';
import { reservationStatuses, type ReservationStatus } from '../reservations/status';
import type { ReservationCalendarPage } from '../reservations/calendar';
import type { ReclaimPlanView } from '../reservations/reclaim-plan';
import type { ReclaimResult, Reservation as ReservationType } from '../reservations/view';
import type { ReclaimScheduleView } from '../scheduled-reclaims/view';
import type { ReservationUtilisation as ReservationUtilisationType } from '../utilisation/reservation';
import type { UtilisationRollup as UtilisationRollupType } from '../utilisation/rollup';
import { utilisationRelations, utilisationWindows } from '../utilisation/windows';
import type { VmView } from '../vms/view';
import type { WebhookAttemptView, WebhookView, WebhookWithSecretView } from '../webhooks/view';

// docs/product.md §5 Ids: the same pattern the request schemas enforce; responses only ever carry such ids.
const Id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
const Ids = z.array(Id);
const Timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds and `Z`.' });
const UnitIds = Ids.meta({ description: "Unit ids, in the node's unit order." });
const SortedIds = (description: string) => Ids.meta({ description: `${description} Sorted by code point.` });
/** A published contract field's id list (docs/product.md §5.1a): its description verbatim, nothing added (the document's introduction says how id lists are sorted). */
const ContractIds = (description: string) => Ids.meta({ description });

/** The Reservation object: exactly the published contract's Response fields less the four reclaim-only ones. */
export const Reservation = z
  .strictObject({
    id: Id,
    nodeId: Id,
    status: z.enum(reservationStatuses).meta({
      description:
        "needs-review means the node's GPU topology changed under the reservation: it grants nothing (and withholds its units from everyone) until an operator re-affirms it.",
    }),
    reservedUnitIds: UnitIds,
    releasedUnitIds: Ids.meta({
      description:
        "The subset of reservedUnitIds currently on the spot market (double sell). Still this reservation's capacity, sellable to anyone at tier=spot only, and reclaimable at any time.",
    }),
    allowedOrgIds: ContractIds('The audience: orgs that may place workloads on the reserved units.'),
    managingOrgIds: ContractIds(
      "Orgs that may release these units to the market, reclaim them, and terminate the spot workloads on them, on the node owner's behalf. Being in the audience does not confer this.",
    ),
    contractRef: z.string().optional().meta({ description: 'Omitted when unset, never null.' }),
    startsAt: Timestamp,
    endsAt: Timestamp.optional().meta({ description: 'Absent = open-ended until cancelled' }),
    reason: z.string().optional().meta({ description: 'The reason given with the latest change that gave one. Omitted when unset, never null.' }),
    topologyGen: z.int().min(0).meta({ description: 'Node topology generation this reservation was written against' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({
    id: 'Reservation',
    description:
      'A reservation: the fields of the published reclaim contract, every one of them always sent but the optional strings, which are absent when unset.',
  });

/** Field names of the published Response that only a reclaim answers with. */
export const reclaimOnlyFields = ['terminated', 'skipped', 'wouldTerminate', 'wouldSkip'] as const;

const Terminated = ContractIds('Reclaim only: spot VM ids terminated to free the reclaimed units.');
const Skipped = ContractIds('Reclaim only: VM ids left running because they are not spot.');
const WouldTerminate = ContractIds('Reclaim dry run only: the spot VM ids this call would terminate.');
const WouldSkip = ContractIds('Reclaim dry run only: VM ids that would be left running.');

/**
 * The fields the published reclaim contract leaves optional although every answer carries them
 * (docs/product.md §5.1a): optional in the reclaim's answer as the contract has them, so that the
 * document promises a client of the contract nothing more than the contract does.
 */
export const contractOptionalFields = ['createdAt', 'updatedAt', 'managingOrgIds', 'releasedUnitIds', 'topologyGen'] as const;

/** The Reservation as the reclaim contract publishes it: its required fields required, the rest optional. */
const ContractReservation = Reservation.partial(
  Object.fromEntries(contractOptionalFields.map((f) => [f, true])) as Record<(typeof contractOptionalFields)[number], true>,
);

/** A reclaim-only field one variant never carries: named there as never present, so that a client narrows on it (`data.wouldTerminate !== undefined`). */
const absent = (like: z.ZodType) =>
  z
    .never()
    .optional()
    .meta({ description: like.meta()?.description ?? '' });

// Two variants rather than one object with four optional arrays: on a real run
// `terminated`/`skipped` are always present and the dry-run pair absent, and vice versa (docs/product.md §5.1).
// Each variant names the other's pair as never present, so that the two are told apart by
// which pair a field of is there — the contract's names admit no discriminator field.
const ReclaimApplied = ContractReservation.extend({
  terminated: Terminated,
  skipped: Skipped,
  wouldTerminate: absent(WouldTerminate),
  wouldSkip: absent(WouldSkip),
}).meta({
  id: 'ReclaimApplied',
  description: 'Answer of a real reclaim: the reservation after the change, with `terminated` and `skipped`, never `wouldTerminate` or `wouldSkip`.',
});
const ReclaimDryRun = ContractReservation.extend({
  wouldTerminate: WouldTerminate,
  wouldSkip: WouldSkip,
  terminated: absent(Terminated),
  skipped: absent(Skipped),
}).meta({
  id: 'ReclaimDryRun',
  description: 'Answer of a dry run (`dryRun: true`): the unchanged reservation, with `wouldTerminate` and `wouldSkip`, never `terminated` or `skipped`.',
});

/**
 * The reclaim answer: the published Response, one variant per `dryRun` (they exclude each other:
 * each requires the pair the other never carries). `anyOf`, as the linter cannot see that they
 * exclude each other without a discriminator field, which the contract's names do not have.
 */
export const ReclaimResponse = z.union([ReclaimApplied, ReclaimDryRun]).meta({ id: 'ReclaimResponse' });

/** What the reclaim publishes, typed as the contract has it: the Reservation with the contract's optional fields optional. */
export type ReclaimContractAnswer = Omit<ReclaimResult, (typeof contractOptionalFields)[number]> &
  Partial<Pick<ReclaimResult, (typeof contractOptionalFields)[number]>>;

/** A reclaim plan (docs/product.md §5.5): what to send to `…/reclaim`, and why. */
export const ReclaimPlan = z
  .strictObject({
    unitIds: UnitIds.meta({
      description:
        "The units to reclaim, in the node's unit order: at least `count` released ones (a VM's units go whole). Send them as the reclaim's `unitIds`.",
    }),
    wouldTerminate: SortedIds('The spot VMs a reclaim of these units terminates: send them as `expectedTerminate`.'),
    wouldSkip: SortedIds('The running VMs on these units a reclaim leaves running (not spot).'),
    policy: z.literal('fewest-evictions').meta({ description: 'The policy that chose the units.' }),
    reasons: z
      .array(
        z.strictObject({
          kind: z.enum(['unit', 'vm']),
          id: Id,
          code: z.string().meta({ description: 'e.g. `idle`, `evicted-vm`, `same-vm`, `kept-vm`, `fewest-evictions`.' }),
          text: z.string().meta({ description: 'The reason in plain words.' }),
        }),
      )
      .meta({ description: 'Why each chosen unit and each terminated VM is in the plan.' }),
  })
  .meta({ id: 'ReclaimPlan' });

/** One GPU unit of a node, in its docs/product.md §3 state. */
export const Unit = z
  .strictObject({
    id: Id,
    state: z.enum(unitStates).meta({
      description:
        'What the unit is doing now: withheld (a needs-review reservation holds it), spot-occupied, released, reserved-occupied, reserved, occupied or free, the first that applies.',
    }),
    model: z.string().optional(),
    memoryGiB: z.int().min(1).optional(),
    nvlinkDomain: z.string().optional(),
    reservationId: Id.optional().meta({
      description: 'The reservation holding the unit (or, for a free unit, the next one), only where the caller may see it.',
    }),
    vmId: Id.optional().meta({ description: 'The VM running on the unit, only where the caller may see it.' }),
    reclaimAt: Timestamp.optional().meta({
      description:
        'When a pending scheduled reclaim takes the unit back (the earliest, if several); shown to every caller, so a spot buyer knows before placing.',
    }),
    reservedFrom: Timestamp.optional().meta({
      description:
        'When the next reservation that holds the unit starts, if one lies ahead (the earliest); shown to every caller, like the state, without naming the reservation.',
    }),
  })
  .meta({ id: 'Unit' });

/** The Node object, with its units and per-state counts. */
export const Node = z
  .strictObject({
    id: Id,
    name: z.string(),
    ownerOrgId: Id,
    topologyGen: z.int().min(0).meta({ description: 'Goes up by one each time the unit list changes.' }),
    units: z.array(Unit).meta({ description: 'The units in display order.' }),
    counts: z.strictObject(Object.fromEntries(unitStates.map((s) => [s, z.int().min(0)])) as Record<(typeof unitStates)[number], z.ZodInt>).meta({
      description: 'Number of units in each state; every state is present.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Node' });

/** The VM object. */
export const Vm = z
  .strictObject({
    id: Id,
    nodeId: Id,
    unitIds: UnitIds,
    tier: z.enum(vmTiers),
    status: z.enum(['running', 'terminated']),
    orgId: Id.optional().meta({ description: "The VM's org; only for a platform operator and the VM's own org." }),
    reservationId: Id.optional(),
    startedAt: Timestamp,
    terminatedAt: Timestamp.optional(),
    terminationReason: z.enum(['reclaimed', 'terminated']).optional(),
    reclaimAt: Timestamp.optional().meta({
      description: 'A running spot VM on a unit with a pending scheduled reclaim: when it will be terminated (the earliest), computed at read time.',
    }),
  })
  .meta({ id: 'Vm' });

/** One unit with its node, and the VM on it where the caller may see that VM (`GET /v1/nodes/{nodeId}/units/{unitId}`). */
export const UnitDetail = Unit.extend({
  nodeId: Id,
  vm: Vm.optional().meta({ description: 'The VM running on the unit, as `GET /v1/vms/{id}` answers it, only where the caller may see it.' }),
}).meta({ id: 'UnitDetail' });

const auditEventFields = {
  id: z.string(),
  at: Timestamp,
  actorOrgId: Id.optional().meta({
    description:
      'The acting org, where the caller may see it: to the platform operator, the actor org, and where the actor is the platform, the node owner or a managing org of the reservation, to whoever sees the event.',
  }),
  actorKey: z
    .strictObject({ id: Id, name: z.string(), prefix: z.string() })
    .optional()
    .meta({ description: "The API key that made the event, shown to that key's own org only (absent otherwise, and for events no key made)." }),
  via: z
    .enum(auditVias)
    .meta({ description: '`console` (a session), `api` (an API key), or `schedule`: work the platform runs itself, or scheduled on a principal’s behalf.' }),
  nodeId: Id.optional().meta({ description: 'The node the event is about; absent for org-level events (`api_key.*`, `sign_in.*`, `webhook.*`).' }),
  reservationId: Id.optional(),
  unitIds: UnitIds,
  reason: z.string().optional(),
};

const actionName = (action: string) => action.replace(/(^|[._])([a-z])/g, (_, __: string, c: string) => c.toUpperCase());

/** One audit trail event, by `action`: each with the `details` that action records (server/audit/details.ts). */
export const AuditEvent = z
  .discriminatedUnion(
    'action',
    auditActions.map((action) =>
      z
        .strictObject({ ...auditEventFields, action: z.literal(action), details: auditDetails[action] as z.ZodType<Record<string, unknown>> })
        .meta({ id: `AuditEvent${actionName(action)}`, description: `A \`${action}\` event.` }),
    ) as unknown as [AuditEventMember, ...AuditEventMember[]],
  )
  .meta({ id: 'AuditEvent', description: 'An audit trail event; its `details` depend on its `action`.' });
type AuditEventMember = z.ZodObject<
  typeof auditEventFields & { action: z.ZodLiteral<(typeof auditActions)[number]>; details: z.ZodType<Record<string, unknown>> },
  z.core.$strict
>;

/** One notification to the acting org. */
const notificationFields = {
  id: z.string(),
  at: Timestamp,
  message: z.string().meta({ description: 'The same facts as `details`, as a sentence.' }),
  readAt: Timestamp.optional().meta({ description: 'When the org marked it read; absent while unread.' }),
};

/** A notification, by `kind` (docs/product.md §5 Objects): the first to a tenant, the others to the platform org. */
export const Notification = z
  .discriminatedUnion('kind', [
    z.strictObject({
      ...notificationFields,
      kind: z.literal('vm.reclaimed').meta({ description: 'To the org whose VM a reclaim terminated.' }),
      details: z
        .strictObject({
          vmId: Id.meta({ description: 'The VM that ended.' }),
          nodeId: Id,
          unitIds: UnitIds,
          terminationReason: z.enum(['reclaimed']),
          terminatedAt: Timestamp,
          reason: z.string().optional().meta({ description: 'The reason the reclaim gave, if any.' }),
        })
        .meta({ description: 'What ended, where, when and why; never the holder or the reservation.' }),
    }),
    z.strictObject({
      ...notificationFields,
      kind: z
        .literal('vm.reclaim_scheduled')
        .meta({ description: 'To the org of a spot VM on units of a scheduled reclaim: when it was scheduled, and on every change.' }),
      details: z
        .strictObject({
          vmId: Id,
          nodeId: Id,
          unitIds: UnitIds,
          change: z
            .enum(reclaimNoticeChanges)
            .meta({ description: 'scheduled, rescheduled, or no longer coming: cancelled, dropped (its units left the schedule) or lapsed.' }),
          reclaimAt: Timestamp.meta({ description: 'When the reclaim is (or was) to run.' }),
          notBefore: Timestamp.meta({ description: 'Nothing happens to the VM before this time.' }),
          previousAt: Timestamp.optional().meta({ description: 'A reschedule: the earlier time.' }),
          reason: z.string().optional().meta({ description: 'The reason the scheduler gave, if any.' }),
        })
        .meta({ description: 'Which VM, where and when; never the holder, the reservation or the schedule.' }),
    }),
    z.strictObject({
      ...notificationFields,
      kind: z.literal('reservation.needs_review').meta({ description: 'To the platform org: a topology change put a reservation in needs-review.' }),
      details: z
        .strictObject({
          nodeId: Id,
          reservationId: Id,
          fromGen: z.int().meta({ description: 'The generation the reservation was written against.' }),
          topologyGen: z.int().meta({ description: "The node's generation after the change; re-affirming moves the reservation to it." }),
        })
        .meta({ description: 'Which reservation withholds its units until an operator re-affirms it.' }),
    }),
    z.strictObject({
      ...notificationFields,
      kind: z.literal('sign_in.lockout').meta({ description: 'To the platform org: a known account, or one of its browsers, was locked out of signing in.' }),
      details: z
        .strictObject({
          scope: z.enum(['account', 'device']),
          email: z.string(),
          userId: Id,
          deviceId: z.string().optional().meta({ description: 'The locked browser, for a device lockout.' }),
          failures: z.int(),
          windowMinutes: z.int(),
          lockedUntil: Timestamp,
        })
        .meta({ description: 'The lockout, as its `sign_in.lockout` audit event records it.' }),
    }),
    z.strictObject({
      ...notificationFields,
      kind: z.literal('webhook.disabled').meta({ description: 'To the org: one of its webhook endpoints was disabled after 24 h of failed deliveries.' }),
      details: z
        .strictObject({
          webhookId: Id,
          url: z.string(),
          failingSince: Timestamp,
          lastError: z.string().optional().meta({ description: 'What the last attempt came to.' }),
        })
        .meta({ description: 'Which endpoint, since when it failed, and how; enable it again to resume where it stopped.' }),
    }),
  ])
  .meta({ id: 'Notification' });

/** Who created a key (docs/product.md §5 Objects): a user, one of the org's keys, or a system job. */
export const ApiKeyCreator = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('user'),
      userId: Id.meta({ description: 'The console user who created it.' }),
      name: z.string().optional().meta({ description: "The user's name; absent once the user no longer exists." }),
    }),
    z.strictObject({
      kind: z.literal('api_key'),
      id: Id.meta({ description: 'The API key of the same org that created it.' }),
      name: z.string().meta({ description: "That key's name." }),
      prefix: z.string().meta({ description: "That key's prefix." }),
    }),
    z.strictObject({ kind: z.literal('system'), job: z.string().meta({ description: 'The platform job that created it.' }) }),
  ])
  .meta({ id: 'ApiKeyCreator', description: "Who created the key; shown to the key's own org (the only one that sees its keys)." });

/** An API key of the acting org: never its secret. */
export const ApiKey = z
  .strictObject({
    id: Id,
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the secret, to recognise the key by.' }),
    scopes: z.array(z.enum(apiKeyScopes)).meta({
      description:
        'What the key may call, fixed at creation: `read` every GET but key management, `reservations:write` reservations and reclaims, `vms:write` VMs, `keys:manage` API keys and webhooks; keys made before scopes existed hold all four.',
    }),
    createdAt: Timestamp,
    createdBy: ApiKeyCreator.optional().meta({ description: 'Who created the key; absent for keys created before creators were recorded.' }),
    lastUsedAt: Timestamp.optional().meta({ description: 'When the key last authenticated a request, to the minute; absent if never.' }),
    revokedAt: Timestamp.optional().meta({ description: 'When it was revoked; a revoked key authenticates nothing (401).' }),
  })
  .meta({ id: 'ApiKey' });

/** The answer of creating a key: the one time its secret is shown. */
export const CreatedApiKey = ApiKey.extend({
  secret: z.string().meta({ description: 'The key itself, for `Authorization: Bearer <secret>`. Shown this once: only its hash is stored.' }),
}).meta({ id: 'CreatedApiKey' });

/** A webhook endpoint (docs/product.md §5.7): never its secret. */
export const Webhook = z
  .strictObject({
    id: Id,
    url: z.string(),
    types: z.array(z.string()).meta({ description: 'The event types delivered; empty: every type.' }),
    description: z.string().optional(),
    enabled: z.boolean(),
    disabledAt: Timestamp.optional(),
    disabledReason: z
      .enum(['failing', 'disabled'])
      .optional()
      .meta({ description: '`failing`: 24 h of failed deliveries; `disabled`: turned off by the org.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    attempts: z.int().meta({ description: 'Failed attempts at the next event since the last delivery.' }),
    failingSince: Timestamp.optional().meta({ description: 'When the current run of failures began; 24 h of it disables the endpoint.' }),
    nextAttemptAt: Timestamp.optional().meta({ description: 'When the next event is tried again.' }),
  })
  .meta({ id: 'Webhook' });

/** Creating an endpoint, or rotating its secret: the one time the secret is shown. */
export const WebhookWithSecret = Webhook.extend({
  secret: z.string().meta({
    description:
      'The Standard Webhooks signing secret (`whsec_…`), shown this once. After a rotation the old one keeps signing beside it for 24 h (two signatures in webhook-signature).',
  }),
}).meta({ id: 'WebhookWithSecret' });

/** One delivery attempt: the endpoint's delivery log. */
export const WebhookAttempt = z
  .strictObject({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    at: Timestamp,
    statusCode: z.int().optional().meta({ description: 'What the endpoint answered; absent when no answer came.' }),
    latencyMs: z.int(),
    error: z.string().optional().meta({ description: 'Why it failed.' }),
    manual: z.boolean().meta({ description: 'A redelivery someone asked for.' }),
  })
  .meta({ id: 'WebhookAttempt' });

const errorCodes = Object.keys(errorTable) as [ErrorCode, ...ErrorCode[]];

/** Each extra problem field (docs/product.md §5 Errors), by name: what it holds, whichever code carries it. */
const problemExtraFields = {
  errors: z
    .array(z.strictObject({ path: z.string().meta({ description: 'The field, e.g. `body.unitIds.0` or `query.limit`.' }), message: z.string() }))
    .meta({ description: 'Each offending field, with what is wrong with it.' }),
  reservationStatus: z.enum(reservationStatuses).meta({
    description: "The reservation's status. It is not named `status`, which RFC 9457 keeps for the HTTP status.",
  }),
  terminate: Ids.meta({ description: 'The VM ids a reclaim would terminate now.' }),
  unitIds: Ids.meta({ description: 'The units concerned.' }),
  vmIds: Ids.meta({ description: 'The VMs on those units that the caller may see.' }),
  orgIds: Ids.meta({ description: 'The orgs that do not exist.' }),
  topologyGen: z.int().min(1).meta({ description: "The node's current topologyGen." }),
  limit: z.int().min(0).meta({ description: 'The limit the request would exceed.' }),
  available: z.int().min(0).meta({ description: 'How many of the candidate units are on the spot market now.' }),
  scheduleStatus: z.enum(reclaimScheduleStatuses).meta({ description: "The schedule's status." }),
  scope: z.enum(apiKeyScopes).meta({ description: 'The scope the operation needs, which the API key lacks.' }),
} satisfies Record<ProblemExtraName, z.ZodType>;

const ProblemTypeUri = z.string().meta({ format: 'uri-reference' });

/** RFC 9457 problem details with this API's `code` and extra fields, any code (docs/product.md §5 Errors): what every problem answer parses as. */
export const Problem = z
  .strictObject({
    type: ProblemTypeUri.meta({ description: 'The page describing the code: `/problems/{code}`, relative to this API.' }),
    title: z.string(),
    status: z.int().min(400).max(599).meta({ description: 'The HTTP status code (RFC 9457).' }),
    detail: z.string().meta({ description: 'A sentence a person can act on.' }),
    code: z.enum(errorCodes),
    ...(Object.fromEntries(Object.entries(problemExtraFields).map(([k, v]) => [k, v.optional()])) as {
      [K in ProblemExtraName]: z.ZodOptional<(typeof problemExtraFields)[K]>;
    }),
  })
  .meta({ description: 'RFC 9457 problem details (`application/problem+json`).' });

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __: string, c: string) => c.toUpperCase());

/**
 * The problem one code answers with, exactly (component `<Code>Problem`): its `type`, `title`,
 * `status` and `code` as constants, and the extras its row of the error table lists, required —
 * no other field. Rendered from the one error table, never restated.
 */
export function problemSchemaOf(code: ErrorCode) {
  const row = errorTable[code];
  return z
    .strictObject({
      type: z.literal(problemType(code)).meta({ format: 'uri-reference', description: 'The page describing this code, relative to this API.' }),
      title: z.literal(row.title),
      status: z.literal(row.status).meta({ type: 'integer', description: 'The HTTP status code (RFC 9457).' }),
      detail: z.string().meta({ description: 'A sentence a person can act on.' }),
      code: z.literal(code),
      ...Object.fromEntries(problemExtrasOf(code).map((k) => [k, problemExtraFields[k]])),
    })
    .meta({ id: `${pascal(code)}Problem`, title: row.title, description: row.description });
}

/**
 * A cursor-paginated list `{ items, nextCursor? }` (docs/product.md §5 Lists).
 * @returns a schema registered as component `id`.
 */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      items: z.array(item),
      nextCursor: z.string().optional().meta({ description: 'Opaque; pass it as `cursor` for the next page. Absent on the last page.' }),
    })
    .meta({ id });
}

export const WebhookPage = pageOf(Webhook, 'WebhookPage');
export const WebhookAttemptPage = pageOf(WebhookAttempt, 'WebhookAttemptPage');

/** A page of the events feed (docs/product.md §5.7): unlike the lists, `nextCursor` is always there. */
export const EventPage = z
  .strictObject({
    items: z.array(Event),
    nextCursor: z.string().meta({ description: 'Opaque; pass it as `after` to read on, also after an empty page. Valid for the 30 days events are kept.' }),
  })
  .meta({ id: 'EventPage' });

/** A scheduled reclaim (docs/product.md §5.6). */
export const ReclaimSchedule = z
  .strictObject({
    id: Id,
    nodeId: Id,
    reservationId: Id,
    unitIds: UnitIds.meta({ description: 'The units it reclaims, in node order; units that left the reservation were dropped.' }),
    at: Timestamp.meta({ description: 'When it runs.' }),
    reason: z.string().optional(),
    status: z.enum(reclaimScheduleStatuses).meta({ description: '`pending` until it runs (`done`), is cancelled, or lapses.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z
      .strictObject({
        orgId: Id,
        userId: Id.optional().meta({ description: 'The user who scheduled it: to the operator and that org only.' }),
        apiKeyId: Id.optional().meta({ description: 'The API key that scheduled it: to the operator and that org only.' }),
        job: z.string().optional().meta({ description: 'The platform job that scheduled it.' }),
      })
      .meta({ description: 'Who scheduled it; the run acts as them, `via: schedule`.' }),
    outcome: z
      .strictObject({ terminated: SortedIds('The spot VMs its reclaim terminated.'), skipped: SortedIds('The VMs it left running.') })
      .optional()
      .meta({ description: 'Once done: what the reclaim did.' }),
    lapseReason: z
      .enum(reclaimScheduleLapses)
      .optional()
      .meta({ description: 'Once lapsed: the reservation was cancelled or ended first, its scheduler may no longer reclaim, or it lost every unit.' }),
  })
  .meta({ id: 'ReclaimSchedule' });

export const NodePage = pageOf(Node, 'NodePage')
  .extend({
    total: z.int().min(0).meta({ description: 'How many nodes match the query, counted up to 1000 (an exact count of a broad query would read every match).' }),
    totalCapped: z.boolean().meta({ description: 'More than `total` nodes match (at least 1001).' }),
  })
  .meta({ id: 'NodePage' });
export const ReclaimSchedulePage = pageOf(ReclaimSchedule, 'ReclaimSchedulePage');
export const ReservationPage = pageOf(Reservation, 'ReservationPage');
export const VmPage = pageOf(Vm, 'VmPage');
export const AuditEventPage = pageOf(AuditEvent, 'AuditEventPage');
export const NotificationPage = pageOf(Notification, 'NotificationPage');
export const ApiKeyPage = pageOf(ApiKey, 'ApiKeyPage');

/** A node's capacity timeline over a window (docs/product.md §5.8 Node timeline). */
export const NodeTimeline = z
  .strictObject({
    nodeId: Id,
    from: Timestamp.meta({ description: 'The window start (inclusive).' }),
    to: Timestamp.meta({ description: 'The window end (exclusive).' }),
    now: Timestamp.meta({ description: 'The clock the read used.' }),
    units: z
      .array(z.strictObject({ id: Id, state: z.enum(unitStates) }))
      .meta({ description: "Every unit in the node's order with its state now, shown to every caller." }),
    items: z
      .array(
        z.strictObject({
          unitId: Id,
          kind: z.enum(unitIntervalKinds),
          startsAt: Timestamp,
          endsAt: Timestamp.nullable().meta({ description: 'Null: no end known (a running VM, an open-ended reservation). While `open`, the planned end.' }),
          open: z.boolean(),
          endedBy: z.enum(unitIntervalEnds).nullable().meta({ description: 'What cut the interval before its planned end; null if none did.' }),
          reservationId: Id.optional().meta({
            description: "The row's reservation (on a `vm` row: the one whose capacity the VM used), only where the caller may see that reservation.",
          }),
          vmId: Id.optional(),
        }),
      )
      .meta({
        description:
          'The intervals that meet the window, by start: a reservation’s (reserved, released, needs-review) where the caller may see the reservation, a VM’s where it may see the VM.',
      }),
    truncated: z.boolean().meta({ description: 'More intervals met the window than one answer holds (5,000): `items` are the earliest.' }),
    reservations: z
      .array(
        z.strictObject({
          id: Id,
          status: z.enum(reservationStatuses),
          allowedOrgIds: Ids,
          managingOrgIds: Ids,
          contractRef: z.string().nullable(),
          startsAt: Timestamp,
          endsAt: Timestamp.nullable(),
        }),
      )
      .meta({ description: 'The reservations the items name, by id.' }),
    vms: z
      .array(z.strictObject({ id: Id, tier: z.enum(vmTiers), status: z.enum(['running', 'terminated']), orgId: Id.optional() }))
      .meta({ description: "The VMs the items name, by id; `orgId` only for a platform operator and the VM's own org." }),
    events: z
      .array(
        z.discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('reclaim'), at: Timestamp, unitIds: UnitIds, reservationId: Id.optional() }),
          z.strictObject({ kind: z.literal('scheduled-reclaim'), at: Timestamp, unitIds: UnitIds, reservationId: Id, scheduleId: Id }),
          z.strictObject({ kind: z.literal('topology'), at: Timestamp, gen: z.int().min(2) }),
        ]),
      )
      .meta({
        description:
          'Points in the window, by time: reclaims that cut the items, pending scheduled reclaims (to those who may read them: operator, node owner, managing org), topology changes.',
      }),
  })
  .meta({ id: 'NodeTimeline' });
/** One bar of the fleet calendar (docs/product.md §5.8 "Fleet calendar"): a reservation the caller may see. */
const CalendarReservation = z
  .strictObject({
    id: Id,
    status: z.enum(reservationStatuses).meta({ description: 'At the time of the request; never `cancelled`: cancelled reservations are not shown.' }),
    units: z.int().min(0).meta({ description: 'How many units it holds (reservedUnitIds).' }),
    startsAt: Timestamp,
    endsAt: Timestamp.optional().meta({ description: 'Absent: open-ended.' }),
    audience: z.array(z.strictObject({ id: Id, name: z.string() })).meta({ description: 'Its allowedOrgIds with their names (the customer), sorted by id.' }),
    managingOrgIds: Ids,
    released: z
      .array(z.strictObject({ startsAt: Timestamp, endsAt: Timestamp.optional(), units: z.int().min(1) }))
      .meta({ description: 'Spans of its units on the spot market meeting the window (the intervals record), grouped by span: how many units shared each.' }),
  })
  .meta({ id: 'CalendarReservation' });

/** `GET /v1/reservation-calendar`: a page of nodes, each with the bars of the window. */
export const ReservationCalendar = z
  .strictObject({
    from: Timestamp,
    to: Timestamp,
    items: z.array(
      z
        .strictObject({
          id: Id,
          name: z.string(),
          ownerOrgId: Id,
          ownerName: z.string(),
          reservations: z.array(CalendarReservation),
          truncated: z.literal(true).optional().meta({
            description:
              'More met the window than a row answers: the earliest 200 bars, and the earliest 200 released spans of each, are shown. Narrow the window.',
          }),
        })
        .meta({ id: 'CalendarNode', description: 'A node, and the reservations meeting the window that the caller may see, by startsAt.' }),
    ),
    nextCursor: z.string().optional().meta({ description: 'Pass as `cursor` for the next page of nodes; absent on the last page.' }),
    total: z.int().min(0).meta({ description: 'How many nodes match the filters, counted up to 1000.' }),
    totalCapped: z.boolean().meta({ description: 'More than `total` nodes match (at least 1001).' }),
  })
  .meta({ id: 'ReservationCalendar' });

/** An org as the org picker shows it: id and name only. */
export const OrgSummary = z.strictObject({ id: z.string(), name: z.string() }).meta({ id: 'OrgSummary' });
export const OrgSummaryList = z.strictObject({ items: z.array(OrgSummary).meta({ description: 'At most 20, by name.' }) }).meta({ id: 'OrgSummaryList' });

const GpuHours = (description: string) => z.number().meta({ description: `${description} GPU-hours (unit-hours), to 3 decimals.` });
const UtilisationFigureFields = {
  heldGpuHours: GpuHours('Held: the reservation held the unit (its `reserved` intervals).'),
  idleGpuHours: GpuHours('Held with no VM of the reservation running on the unit (released or not).'),
  releasedGpuHours: GpuHours('On the spot market (`released` intervals).'),
  idleReleasedGpuHours: GpuHours('Released with no spot VM on the unit.'),
  spotGpuHours: GpuHours('Spot VMs ran on the units while the reservation held them.'),
  reservedTierGpuHours: GpuHours("The audience's reserved-tier VMs ran on the units while the reservation held them."),
  evictions: z.number().int().meta({ description: 'VMs of the reservation that a reclaim ended in the window (each VM once).' }),
};
const UtilisationFigures = z.strictObject(UtilisationFigureFields).meta({ id: 'UtilisationFigures' });
const UtilisationPoint = z.strictObject({ from: Timestamp, to: Timestamp, ...UtilisationFigureFields }).meta({ id: 'UtilisationPoint' });
const UtilisationSummaryFields = {
  from: Timestamp.meta({ description: 'The window starts (inclusive): now less 7 or 30 days.' }),
  to: Timestamp.meta({ description: 'The window ends (exclusive): now.' }),
  totals: UtilisationFigures,
  series: z
    .array(UtilisationPoint)
    .meta({ description: 'The window in buckets of 6 hours (`7d`: 28) or 1 day (`30d`: 30), oldest first, counted back from now; they sum to the totals.' }),
};

/** `GET …/reservations/{id}/utilisation` (docs/product.md §5.8 Utilisation). */
export const ReservationUtilisation = z
  .strictObject({ nodeId: Id, reservationId: Id, window: z.enum(utilisationWindows), ...UtilisationSummaryFields })
  .meta({ id: 'ReservationUtilisation' });

/** `GET /v1/utilisation` (docs/product.md §5.8 Utilisation). */
export const UtilisationRollup = z
  .strictObject({
    window: z.enum(utilisationWindows),
    from: Timestamp,
    to: Timestamp,
    relations: z.array(z.strictObject({ relation: z.enum(utilisationRelations), ...UtilisationSummaryFields })).meta({
      description: 'One summary per relation the acting org has, in the order owner, manager, audience, fleet.',
    }),
  })
  .meta({ id: 'UtilisationRollup' });

// ---- Drift checks: each schema's parsed type is exactly the type its verb returns. ----

/** `true` when A and B accept the same values and name the same keys (so an optional field
 * on one side only, which plain mutual assignability lets through, fails too). */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;
type SameKeys<A, B> = [KeysOf<A>] extends [KeysOf<B>] ? ([KeysOf<B>] extends [KeysOf<A>] ? true : false) : false;
// Distributes over unions, so a union's keys are those of all its members.
type KeysOf<T> = T extends unknown ? keyof T : never;
type Assert<T extends true> = T;
type Page<T> = { items: T[]; nextCursor?: string };

// ProblemExtras types `reservationStatus` as string; what the verbs put there is always a
// reservation status, which is what the document promises.
// `scope` likewise: over REST only a key's scope can be missing (members:manage is not on REST).
type ProblemOnWire = Omit<ProblemType, 'reservationStatus' | 'scheduleStatus' | 'scope'> & {
  scope?: (typeof apiKeyScopes)[number];
  reservationStatus?: ReservationStatus;
  scheduleStatus?: (typeof reclaimScheduleStatuses)[number];
};

export type _DriftChecks = [
  Assert<Exact<z.infer<typeof Reservation>, ReservationType>>,
  // ReclaimResult has all four reclaim fields optional; the schema says which pair is present,
  // and (the contract's optionality) leaves optional five fields every answer carries.
  Assert<[ReservationType & Required<Pick<ReclaimResult, 'terminated' | 'skipped'>>] extends [z.infer<typeof ReclaimApplied>] ? true : false>,
  Assert<[ReservationType & Required<Pick<ReclaimResult, 'wouldTerminate' | 'wouldSkip'>>] extends [z.infer<typeof ReclaimDryRun>] ? true : false>,
  Assert<[z.infer<typeof ReclaimResponse>] extends [ReclaimContractAnswer] ? true : false>,
  Assert<SameKeys<z.infer<typeof ReclaimResponse>, ReclaimResult>>,
  Assert<Exact<z.infer<typeof ReclaimPlan>, ReclaimPlanView>>,
  Assert<Exact<z.infer<typeof Unit>, UnitView>>,
  Assert<Exact<z.infer<typeof UnitDetail>, UnitDetailView>>,
  Assert<Exact<z.infer<typeof Node>, NodeView>>,
  Assert<Exact<z.infer<typeof Node>['counts'], NodeView['counts']>>,
  Assert<Exact<z.infer<typeof Vm>, VmView>>,
  // The view types `details` as any record; the schema says which fields each action records.
  Assert<[z.infer<typeof AuditEvent>] extends [AuditEventView] ? true : false>,
  Assert<SameKeys<z.infer<typeof AuditEvent>, AuditEventView>>,
  Assert<Exact<z.infer<typeof Notification>, NotificationView>>,
  Assert<Exact<z.infer<typeof ApiKey>, ApiKeyView>>,
  Assert<Exact<z.infer<typeof CreatedApiKey>, CreatedApiKeyView>>,
  Assert<Exact<z.infer<typeof Problem>, ProblemOnWire>>,
  Assert<ProblemOnWire extends ProblemType ? true : false>,
  Assert<Exact<z.infer<typeof ReservationCalendar>, ReservationCalendarPage>>,
  Assert<Exact<z.infer<typeof NodePage>, Page<NodeView> & { total: number; totalCapped: boolean }>>,
  Assert<Exact<z.infer<typeof ReservationPage>, Page<ReservationType>>>,
  Assert<Exact<z.infer<typeof VmPage>, Page<VmView>>>,
  Assert<[z.infer<typeof AuditEventPage>] extends [Page<AuditEventView>] ? true : false>,
  Assert<Exact<z.infer<typeof NotificationPage>, Page<NotificationView>>>,
  Assert<Exact<z.infer<typeof OrgSummaryList>, { items: OrgSummaryType[] }>>,
  Assert<Exact<z.infer<typeof ApiKeyPage>, Page<ApiKeyView>>>,
  Assert<Exact<z.infer<typeof ReclaimSchedule>, ReclaimScheduleView>>,
  Assert<Exact<z.infer<typeof ReclaimSchedulePage>, Page<ReclaimScheduleView>>>,
  Assert<Exact<z.infer<typeof ReservationUtilisation>, ReservationUtilisationType>>,
  Assert<Exact<z.infer<typeof UtilisationRollup>, UtilisationRollupType>>,
  Assert<Exact<z.infer<typeof NodeTimeline>, NodeTimelineType>>,
  Assert<[z.infer<typeof Event>] extends [EventView] ? true : false>,
  Assert<Exact<z.infer<typeof Webhook>, WebhookView>>,
  Assert<Exact<z.infer<typeof WebhookWithSecret>, WebhookWithSecretView>>,
  Assert<Exact<z.infer<typeof WebhookAttempt>, WebhookAttemptView>>,
  Assert<Exact<z.infer<typeof WebhookPage>, Page<WebhookView>>>,
  Assert<Exact<z.infer<typeof WebhookAttemptPage>, Page<WebhookAttemptView>>>,
  Assert<SameKeys<z.infer<typeof EventPage>, EventPageType>>,
];

/** The OpenAPI document itself: any JSON object. */
export const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' });
