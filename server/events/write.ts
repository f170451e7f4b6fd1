import type { Tx } from '@/db/client';
import { toColumnRecord } from '@/db/prepared';
import { events } from '@/db/schema';
import { sql, type SQL } from 'drizzle-orm';
import { platformOrgId } from '../context';
import { newId } from '../ids';
import { eventCatalog, fieldsFor, type EventType, type RecipientRole } from './catalog';
import { noteRecipients } from './notify';

/**
 * The orgs that stand to an event's subject when it is written (docs/product.md §5.7): the
 * node's owner, the reservation's managing orgs and audience, the VM's own org. The platform
 * operator is always one. Each receives the event if its type names that role.
 */
export type Recipients = {
  ownerOrgId?: string;
  managingOrgIds?: readonly string[];
  allowedOrgIds?: readonly string[];
  tenantOrgId?: string;
  /** The org whose own thing the subject is (its webhook endpoint). */
  orgId?: string;
};

/** One event as a change states it: its type, everything its data may carry, and who stands to it. */
export type EventFact = { type: EventType; at: Date; nodeId?: string; data: Record<string, unknown>; to: Recipients };

/** The recipients of events on a node (and maybe one of its reservations), from rows in scope. */
export function recipientsOf(
  node: { ownerOrgId: string },
  reservation?: { allowedOrgIds: readonly string[]; managingOrgIds: readonly string[] },
  tenantOrgId?: string,
): Recipients {
  return { ownerOrgId: node.ownerOrgId, managingOrgIds: reservation?.managingOrgIds, allowedOrgIds: reservation?.allowedOrgIds, tenantOrgId };
}

function rolesByOrg(to: Recipients): Map<string, Set<RecipientRole>> {
  const roles = new Map<string, Set<RecipientRole>>();
  const add = (org: string | undefined, role: RecipientRole) => {
    if (!org) return;
    let set = roles.get(org);
    if (!set) roles.set(org, (set = new Set()));
    set.add(role);
  };
  add(platformOrgId(), 'operator');
  add(to.ownerOrgId, 'owner');
  for (const org of to.managingOrgIds ?? []) add(org, 'managing');
  for (const org of to.allowedOrgIds ?? []) add(org, 'audience');
  add(to.tenantOrgId, 'tenant');
  add(to.orgId, 'org');
  return roles;
}

/** The outbox rows of one event: a copy per recipient org, each with the fields its roles may see (docs/product.md §5.7). */
export type EventRow = typeof events.$inferInsert;

/**
 * Addresses events (docs/product.md §5.7 "Who receives what"): one row per event and recipient
 * org, with the data fields of the catalog that org's roles may see; undefined fields are left
 * out (optional fields are omitted, never null).
 */
export function eventRows(facts: readonly EventFact[]): EventRow[] {
  const rows: EventRow[] = [];
  for (const fact of facts) {
    const id = newId('ev');
    const declared = Object.keys(eventCatalog[fact.type].data.shape);
    for (const [orgId, roles] of rolesByOrg(fact.to)) {
      const fields = fieldsFor(fact.type, roles);
      if (!fields) continue;
      const data: Record<string, unknown> = {};
      for (const f of declared) if (fields.has(f) && fact.data[f] !== undefined) data[f] = fact.data[f];
      rows.push({ id, orgId, type: fact.type, at: fact.at, nodeId: fact.nodeId ?? null, data });
    }
  }
  // Told once the transaction commits (server/events/notify.ts), never from inside it.
  noteRecipients(rows.map((r) => r.orgId));
  return rows;
}

const eventColumns = ['id', 'org_id', 'type', 'at', 'node_id', 'data'] as const;
const columnList = sql.raw(eventColumns.map((n) => `"${n}"`).join(', '));

/**
 * SQL that inserts `rows` given as one jsonb parameter (`jsonb_populate_recordset`), for a
 * data-modifying CTE in a statement a verb already sends: events cost no round trip of their own.
 * @param json the rows as `eventsJson` gives them, or a placeholder for them.
 */
export function insertEventsSql(json: unknown): SQL {
  return sql`insert into ${events} (${columnList}) select ${columnList} from jsonb_populate_recordset(null::events, ${json}::jsonb)`;
}

/** The rows as the jsonb parameter of `insertEventsSql`. */
export function eventsJson(rows: readonly EventRow[]): string {
  return JSON.stringify(rows.map((r) => toColumnRecord(events, r)));
}

/**
 * Writes events in the caller's transaction (docs/product.md §5.7: in the transaction of the
 * change), one statement; nothing when no fact has a recipient.
 */
export async function writeEvents(tx: Tx, facts: readonly EventFact[]): Promise<void> {
  const rows = eventRows(facts);
  if (rows.length === 0) return;
  await tx.execute(insertEventsSql(eventsJson(rows)));
}
