/**
 * What each audit action records in `details` (docs/product.md §5 Objects, Audit event): one
 * schema per action, which the writers' types follow (server/audit/write.ts `AuditEventInput`)
 * and the OpenAPI document renders (the `AuditEvent` member of each action).
 */
import { apiKeyScopes, auditActions, membershipRoles, reclaimScheduleLapses, vmTiers, type AuditAction } from '@/db/schema';
import { z } from 'zod';
import { reservationStatuses } from '../reservations/status';

const Id = z.string();
const Ids = z.array(Id);
const Time = z.string().meta({ format: 'date-time' });

const keyFacts = z.strictObject({ apiKeyId: Id, name: z.string(), prefix: z.string() });
const scheduleAt = { scheduleId: Id.meta({ description: 'The scheduled reclaim.' }), at: Time.meta({ description: 'When it runs (ran, or was to run).' }) };
const tenantsTold = z.int().min(0).meta({ description: 'How many spot tenants were notified.' });
const vmFacts = z.strictObject({ vmId: Id, tier: z.enum(vmTiers) });
const Role = z.enum(membershipRoles);

/** Each action's `details`, by action. */
export const auditDetails = {
  'node.register': z.strictObject({ name: z.string(), ownerOrgId: Id, topologyGen: z.literal(1) }),
  'node.topology': z.strictObject({
    fromGen: z.int().min(1),
    toGen: z.int().min(2),
    added: Ids.meta({ description: 'Units the new list has and the old one did not.' }),
    removed: Ids.meta({ description: 'Units the old list had and the new one does not.' }),
    changed: Ids.meta({ description: 'Units on both lists whose attributes changed.' }),
  }),
  'reservation.create': z.strictObject({ allowedOrgIds: Ids, managingOrgIds: Ids, startsAt: Time, endsAt: Time.optional() }),
  'reservation.update': z
    .strictObject({
      allowedOrgIds: Ids.optional(),
      managingOrgIds: Ids.optional(),
      endsAt: Time.nullable().optional().meta({ description: 'The new end; null: open-ended now.' }),
      contractRef: z.string().nullable().optional().meta({ description: 'The new contract reference; null: cleared.' }),
      removedUnitIds: Ids.optional().meta({ description: 'Units the edit removed from reservedUnitIds.' }),
    })
    .meta({ description: 'Only what the edit changed, each field its new value.' }),
  'reservation.cancel': z.strictObject({ previousStatus: z.enum(reservationStatuses) }),
  'reservation.release': z.strictObject({ released: Ids.meta({ description: 'The units that entered the spot market.' }) }),
  'reservation.reclaim': z.strictObject({
    terminated: Ids.meta({ description: 'The spot VMs it terminated.' }),
    skipped: Ids.meta({ description: 'The VMs on the named units it left running (not spot).' }),
    scheduleId: Id.optional().meta({ description: 'The scheduled reclaim that ran it, if one did.' }),
  }),
  'reservation.reaffirm': z.strictObject({ fromGen: z.int().min(1), toGen: z.int().min(1), status: z.enum(reservationStatuses) }),
  'vm.place': vmFacts,
  'vm.terminate': vmFacts,
  'reclaim_schedule.create': z.strictObject({ ...scheduleAt, tenantsTold }),
  'reclaim_schedule.update': z
    .union([
      z.strictObject({ ...scheduleAt, previousAt: Time.meta({ description: 'A reschedule: the earlier time.' }), tenantsTold }),
      z.strictObject({
        ...scheduleAt,
        droppedUnitIds: Ids.meta({ description: 'Units that left the reservation or the node, dropped from the schedule.' }),
        unitIds: Ids.meta({ description: 'The units it still has.' }),
      }),
    ])
    .meta({ description: 'A reschedule (`previousAt`), or units dropped (`droppedUnitIds`).' }),
  'reclaim_schedule.cancel': z.strictObject({ ...scheduleAt, tenantsTold }),
  'reclaim_schedule.lapse': z.strictObject({ ...scheduleAt, lapseReason: z.enum(reclaimScheduleLapses) }),
  'api_key.create': keyFacts.extend({
    scopes: z
      .array(z.enum(apiKeyScopes))
      .optional()
      .meta({ description: 'The scopes the key holds, fixed for its life; absent on events written before keys had scopes.' }),
  }),
  'api_key.revoke': keyFacts,
  'sign_in.lockout': z.strictObject({
    scope: z.enum(['account', 'device']),
    email: z.string(),
    userId: Id,
    deviceId: Id.optional().meta({ description: 'The locked browser, for a device lockout.' }),
    failures: z.int().min(0),
    windowMinutes: z.int().min(0),
    lockedUntil: Time,
  }),
  'sign_in.unlock': z.strictObject({
    email: z.string(),
    userId: Id,
    unlocked: z.array(z.enum(['account', 'device'])),
    failures: z.int().min(0),
    lockedUntil: Time,
  }),
  'webhook.create': z.strictObject({ webhookId: Id, url: z.string(), types: z.array(z.string()), enabled: z.boolean() }),
  'webhook.update': z
    .strictObject({
      webhookId: Id,
      url: z.string().optional(),
      types: z.array(z.string()).optional(),
      description: z.string().nullable().optional(),
      enabled: z.boolean().optional(),
    })
    .meta({ description: 'The endpoint, and only what the change changed, each its new value.' }),
  'webhook.delete': z.strictObject({ webhookId: Id, url: z.string() }),
  'webhook.rotate_secret': z.strictObject({ webhookId: Id }),
  'member.invite': z.strictObject({
    inviteId: Id,
    role: Role,
    withdrawn: z.literal(true).optional().meta({ description: 'The invitation was withdrawn, not made.' }),
  }),
  'member.join': z.strictObject({ inviteId: Id, userId: Id, role: Role }),
  'member.role': z.strictObject({ userId: Id, from: Role, to: Role }),
  'member.remove': z.strictObject({ userId: Id, role: Role.meta({ description: 'The role the member had.' }) }),
} satisfies Record<AuditAction, z.ZodType>;

/** The `details` a writer of `A` records. */
export type AuditDetailsOf<A extends AuditAction> = z.input<(typeof auditDetails)[A]>;

/** Every action has its schema (a new action fails `tsc` above until it has one). */
export const _everyAction: readonly AuditAction[] = auditActions;
