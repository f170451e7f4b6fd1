/**
 * Where every table goes on Citus (docs/scaling.md; docs/product.md §7: "node id is the natural
 * shard key"). The plan is on paper — Citus is not installed here — but it is held to the schema:
 * server/one-node-per-transaction.test.ts fails for a table this map does not place, for a table
 * with a node column placed anywhere but with its node, and for a node transaction that writes a
 * table not placed with the node unless its entry says how that write travels (`inNodeTransactions`).
 * docs/scaling.md's placement table must name the same kind for every table (the same test reads it).
 */

/**
 * - `node`: distributed by the node's id (`column`), co-located with `nodes`: a node's rows are
 *   one shard group, so a transaction on one node is a single-shard (router) transaction.
 * - `org`: distributed by an org id (`column`), co-located with the other org tables: what one
 *   org reads and writes on its own (its inbox, its webhooks, its stored answers).
 * - `reference`: one copy on every node: small, read everywhere, joined with both groups; each
 *   write goes to every copy (two-phase commit), so it must be rare.
 * - `coordinator`: a Citus local table on the coordinator: hot per-request state of the app
 *   servers themselves, never joined with node or org rows.
 */
export type PlacementKind = 'node' | 'org' | 'reference' | 'coordinator';

export type Placement =
  | {
      kind: 'node';
      column: 'id' | 'node_id';
      /** Rows that name no node (org-level ones) cannot live here: where they go instead. */
      nodeless?: string;
    }
  | {
      kind: 'org';
      column: string;
      /** Why a node's transaction writes this table today, and how that write travels on Citus. */
      inNodeTransactions?: string;
      /** The distribution column is not there yet: what the migration copies into it. */
      added?: string;
    }
  | { kind: 'reference' | 'coordinator' };

/** Every table of the schema, by name (docs/scaling.md "Table by table"). */
export const tablePlacement = {
  nodes: { kind: 'node', column: 'id' },
  node_units: { kind: 'node', column: 'node_id' },
  node_topologies: { kind: 'node', column: 'node_id' },
  reservations: { kind: 'node', column: 'node_id' },
  reservation_units: { kind: 'node', column: 'node_id' },
  reservation_milestones: { kind: 'node', column: 'node_id' },
  reservation_orgs: { kind: 'node', column: 'node_id' },
  vms: { kind: 'node', column: 'node_id' },
  vm_units: { kind: 'node', column: 'node_id' },
  unit_intervals: { kind: 'node', column: 'node_id' },
  reclaim_schedules: { kind: 'node', column: 'node_id' },
  reclaim_schedule_units: { kind: 'node', column: 'node_id' },
  audit_events: { kind: 'node', column: 'node_id', nodeless: 'org-level events (api_key.*, sign_in.*, webhook.*) move to org_audit_events, by actor_org_id' },
  events: { kind: 'node', column: 'node_id', nodeless: 'webhook.disabled, the one event of no node, goes straight to its org feed (org_events)' },
  notifications: {
    kind: 'org',
    column: 'org_id',
    inNodeTransactions:
      'vm.reclaimed, vm.reclaim_scheduled and reservation.needs_review are written with their change: on Citus into the node outbox, relayed to the org',
  },
  idempotency_records: {
    kind: 'org',
    column: 'org_id',
    inNodeTransactions: 'a stored answer commits with its effect: on Citus the record of a node route lives with its node (node_idempotency_records)',
  },
  webhook_endpoints: { kind: 'org', column: 'org_id' },
  webhook_secrets: { kind: 'org', column: 'org_id', added: "its endpoint's org_id (today reached through endpoint_id)" },
  webhook_attempts: { kind: 'org', column: 'org_id', added: "its endpoint's org_id (today reached through endpoint_id)" },
  orgs: { kind: 'reference' },
  users: { kind: 'reference' },
  memberships: { kind: 'reference' },
  member_invites: { kind: 'reference' },
  api_keys: { kind: 'reference' },
  sessions: { kind: 'coordinator' },
  known_devices: { kind: 'coordinator' },
  sign_in_throttles: { kind: 'coordinator' },
  rate_limit_windows: { kind: 'coordinator' },
  test_clock: { kind: 'coordinator' },
} as const satisfies Record<string, Placement>;

/**
 * The placement of `table` on Citus (docs/product.md §7: node id is the shard key; docs/scaling.md),
 * or undefined for a table the plan does not name yet.
 */
export function placementOf(table: string): Placement | undefined {
  return (tablePlacement as Record<string, Placement>)[table];
}
