/**
 * The benchmark fleet (docs/performance.md): thousands of nodes written with bulk SQL
 * (`INSERT … SELECT generate_series`) on top of the demo seed (db/seed.ts), whose orgs, users and
 * API keys give the benchmark its principals. Every row obeys the invariants of
 * server/testing/invariants.ts, and the history is audited as the verbs would have audited it
 * (one `vm.place` per VM, one `vm.terminate` or reclaim event per ended VM, a notification per
 * reclaimed VM), so that the audit trail and the notifications are as large as a real fleet's.
 *
 * Per node `fleet-NNNNN` (8 H100 units, owner Acme, every fifth Borealis):
 * - reservations in every status of docs/product.md §4: `-active` (gpu-0…3, audience Nimbus,
 *   managed by Helix; gpu-2/3 released on even nodes), `-expired` (all 8), `-cancelled`
 *   (gpu-4…7) and `-upcoming` (gpu-4/5, pending); every 50th node had its topology changed an
 *   hour ago (generation 2), so its reservations are needs-review;
 * - running VMs: a reserved VM on gpu-0 and spot VMs on the released gpu-2/3 (even nodes), an
 *   on-demand VM on gpu-6 (every third), a spot VM on the free gpu-7 (every fourth);
 * - `historyPerNode` terminated VMs over the last month, the last of them reclaimed.
 * Zephyr owns nothing, manages nothing and acts on one node in a hundred (`i % 100 = 4`): the org that sees few
 * audit events (the audit list's hard case, issue 10).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';
import { gpuUnits } from './factories';

export type FleetOptions = {
  /** How many nodes to add. */
  nodes: number;
  /** Terminated VMs per node (default 20: 10,000 nodes give 200,000 of them). */
  historyPerNode?: number;
  /** The instant the history ends at; normally the database's clock right after the demo seed. */
  now: Date;
  /** Told each step's name and seconds as it finishes (`npm run fleet` prints them). */
  onStep?: (step: string, seconds: number) => void;
};

export type FleetCounts = {
  nodes: number;
  units: number;
  reservations: number;
  vms: number;
  runningVms: number;
  auditEvents: number;
  notifications: number;
};

/** Node ids of the fleet: `fleet-00001` …, wide enough for `count` (lpad would truncate). */
export function fleetNodeId(i: number, count: number): string {
  return `fleet-${String(i).padStart(Math.max(5, String(count).length), '0')}`;
}

/**
 * Adds the fleet to a database that holds the demo seed (its orgs and API keys) and no fleet yet,
 * in one transaction, then ANALYZEs so the planner sees the new sizes at once.
 * @returns the row counts of the whole database afterwards.
 * @throws Error when the demo seed's orgs or API keys are missing.
 */
export async function generateFleet(db: Db, options: FleetOptions): Promise<FleetCounts> {
  const n = options.nodes;
  const k = options.historyPerNode ?? 20;
  const width = Math.max(5, String(n).length);
  const t = options.now.toISOString();
  const units = JSON.stringify(gpuUnits());
  const timed = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    options.onStep?.(step, (performance.now() - started) / 1000);
    return result;
  };
  await db.transaction(async (tx) => {
    const keys = await tx.execute<{ org_id: string }>(sql`select distinct org_id from api_keys where revoked_at is null`);
    const have = new Set([...keys].map((r) => r.org_id));
    for (const org of ['org_platform', 'org_acme', 'org_borealis', 'org_helix', 'org_nimbus', 'org_orbit', 'org_quark', 'org_zephyr']) {
      if (!have.has(org)) throw new Error(`the fleet sits on the demo seed: org ${org} or its API key is missing (run the demo seed first)`);
    }
    // A bulk load: constraints and indexes are rebuilt once at the end instead of row by row
    // (180,000 reservation units through the exclusion constraint's GiST index alone take ~40 s
    // one by one), and re-adding them checks every generated row in one pass.
    // 1 GB: at 100,000 nodes the largest indexes (audit_events': 4.9 M rows) sort in memory.
    await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
    await tx.execute(sql`set local work_mem = '128MB'`);
    const restore = await dropConstraintsAndIndexes(tx, FLEET_TABLES);
    // One row per node: its id, owner and whether its topology changed (needs-review).
    await timed('fleet_nodes', () =>
      tx.execute(sql`create temp table fleet_nodes on commit drop as
      select i, 'fleet-' || lpad(i::text, ${width}, '0') as id,
        case when i % 5 = 0 then 'org_borealis' else 'org_acme' end as owner,
        i % 50 = 0 as review
      from generate_series(1, ${n}::int) i`),
    );
    await timed('nodes', () =>
      tx.execute(sql`insert into nodes (id, name, owner_org_id, topology_gen, created_at, updated_at)
      select id, 'Fleet H100 #' || i || case when i % 2 = 0 then ' (fra-1)' else ' (ams-3)' end, owner,
        case when review then 2 else 1 end, ${t}::timestamptz - interval '60 days',
        case when review then ${t}::timestamptz - interval '1 hour' else ${t}::timestamptz - interval '60 days' end
      from fleet_nodes`),
    );
    await timed('node_units', () =>
      tx.execute(sql`insert into node_units (node_id, unit_id, position, model, memory_gib, nvlink_domain)
      select f.id, 'gpu-' || u, u, 'H100-SXM5', 80, 'nvl-' || (u / 4) from fleet_nodes f cross join generate_series(0, 7) u`),
    );
    await timed('node_topologies', () =>
      tx.execute(sql`insert into node_topologies (node_id, gen, units, created_at)
      select id, 1, ${units}::jsonb, ${t}::timestamptz - interval '60 days' from fleet_nodes
      union all
      select id, 2, ${units}::jsonb, ${t}::timestamptz - interval '1 hour' from fleet_nodes where review`),
    );

    // Reservations: one row per (node, kind), periods relative to now.
    await timed('fleet_res', () =>
      tx.execute(sql`create temp table fleet_res on commit drop as
      select f.i, f.id as node_id, f.owner, r.kind, f.id || '-' || r.kind as id, r.units,
        array(select 'gpu-' || u from unnest(r.units) u order by u) as unit_ids, r.released, r.allowed, r.managing,
        ${t}::timestamptz + r.starts as starts_at, ${t}::timestamptz + r.ends as ends_at, ${t}::timestamptz + r.created as created_at,
        case when r.kind = 'cancelled' then ${t}::timestamptz - interval '6 days' end as cancelled_at
      from fleet_nodes f cross join lateral (values
        ('active', array[0, 1, 2, 3], case when f.i % 2 = 0 then array[2, 3] else array[]::int[] end, array['org_nimbus'], array['org_helix'],
          interval '-10 days', interval '20 days', interval '-11 days'),
        ('expired', array[0, 1, 2, 3, 4, 5, 6, 7], array[]::int[], array['org_quark'], array[]::text[], interval '-30 days', interval '-12 days', interval '-31 days'),
        ('cancelled', array[4, 5, 6, 7], array[]::int[], array['org_orbit'], array[]::text[], interval '-5 days', interval '5 days', interval '-7 days'),
        ('upcoming', array[4, 5], array[]::int[], array[case when f.i % 100 = 4 then 'org_zephyr' else 'org_quark' end], array[]::text[],
          interval '2 days', interval '9 days', interval '-1 day')
      ) as r(kind, units, released, allowed, managing, starts, ends, created)`),
    );
    // Their orgs go into reservation_orgs by the table's statement trigger (migration 0017): one INSERT … SELECT for all of them.
    await timed('reservations', () =>
      tx.execute(sql`insert into reservations (id, node_id, allowed_org_ids, managing_org_ids, contract_ref, starts_at, ends_at, reason, topology_gen, cancelled_at, created_at, updated_at)
      select id, node_id, allowed, managing, case when kind = 'active' then 'FLEET-' || i end, starts_at, ends_at,
        case when kind = 'cancelled' then 'Customer withdrew' end, 1, cancelled_at, created_at,
        case when kind = 'cancelled' then cancelled_at when kind = 'active' and cardinality(released) > 0 then ${t}::timestamptz - interval '9 days' else created_at end
      from fleet_res`),
    );
    await timed('reservation_units', () =>
      tx.execute(sql`insert into reservation_units (reservation_id, node_id, unit_id, starts_at, ends_at, cancelled, released)
      select r.id, r.node_id, 'gpu-' || u, r.starts_at, r.ends_at, r.cancelled_at is not null, u = any(r.released)
      from fleet_res r cross join unnest(r.units) u`),
    );

    // VMs: the running ones (units chosen so each rule of docs/product.md §3 holds), then history.
    await timed('fleet_vms', () =>
      tx.execute(sql`create temp table fleet_vms on commit drop as
      select f.i, f.id as node_id, f.id || '-' || v.name as id, v.org, v.tier, v.res, v.units, array['gpu-' || v.units[1]] as unit_ids,
        ${t}::timestamptz + v.started as started_at,
        null::timestamptz as terminated_at, null::text as reason
      from fleet_nodes f cross join lateral (values
        ('reserved', 'org_nimbus', 'reserved', f.id || '-active', array[0], interval '-20 hours', f.i % 2 = 0),
        ('spot-2', 'org_orbit', 'spot', null, array[2], interval '-10 hours', f.i % 2 = 0),
        ('spot-3', 'org_quark', 'spot', null, array[3], interval '-8 hours', f.i % 2 = 0),
        ('ondemand-6', 'org_orbit', 'on-demand', null, array[6], interval '-12 hours', f.i % 3 = 0),
        ('spot-7', case when f.i % 100 = 4 then 'org_zephyr' else 'org_quark' end, 'spot', null, array[7], interval '-5 hours', f.i % 4 = 0)
      ) as v(name, org, tier, res, units, started, present)
      where v.present
      union all
      -- History: 30 h apart on rotating units, 6 h long, the last one reclaimed off released gpu-2.
      select f.i, f.id, f.id || '-h' || h, case when f.i % 100 = 4 and h = 0 then 'org_zephyr' else (array['org_orbit', 'org_quark', 'org_nimbus'])[1 + h % 3] end,
        case when h = ${k - 1} or h % 2 = 0 then 'spot' else 'on-demand' end, null,
        case when h = ${k - 1} then array[2] when h % 3 = 0 then array[h % 8, (h + 1) % 8] else array[h % 8] end,
        case when h = ${k - 1} then array['gpu-2'] when h % 3 = 0 then array(select 'gpu-' || u from unnest(array[h % 8, (h + 1) % 8]) u order by u)
          else array['gpu-' || h % 8] end,
        ${t}::timestamptz - interval '29 days' + h * interval '30 hours',
        ${t}::timestamptz - interval '29 days' + h * interval '30 hours' + interval '6 hours',
        case when h = ${k - 1} then 'reclaimed' else 'terminated' end
      from fleet_nodes f cross join generate_series(0, ${k - 1}::int) h`),
    );
    await timed('vms', () =>
      tx.execute(sql`insert into vms (id, node_id, org_id, tier, reservation_id, status, started_at, terminated_at, termination_reason)
      select id, node_id, org, tier, res, case when terminated_at is null then 'running' else 'terminated' end, started_at, terminated_at, reason from fleet_vms`),
    );
    await timed('vm_units', () =>
      tx.execute(sql`insert into vm_units (vm_id, node_id, unit_id, running)
      select v.id, v.node_id, 'gpu-' || u, v.terminated_at is null from fleet_vms v cross join unnest(v.units) u`),
    );

    // The record of unit intervals, as the verbs write it (docs/product.md §5.8): each
    // reservation's units over its period (cut at its cancel), the active ones' released units
    // since their release, and every VM's run naming the reservation that held the unit then.
    // A reservation cancelled before it began, or released after it ended, left no time (the
    // verbs delete an interval that would start at or after its end): the filter drops those.
    await timed('unit_intervals (holds)', () =>
      tx.execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at, open, ended_by)
      select * from (
        select r.node_id, 'gpu-' || u, k.kind, r.id, case when k.kind = 'released' then ${t}::timestamptz - interval '9 days' else r.starts_at end as starts_at,
          coalesce(least(r.cancelled_at, r.ends_at), r.ends_at) as ends_at, r.cancelled_at is null, case when r.cancelled_at < r.ends_at then 'cancel' end
        from fleet_res r cross join unnest(r.units) u
        cross join lateral (values ('reserved'), ('released')) k(kind)
        where k.kind = 'reserved' or u = any(r.released)
      ) i where i.ends_at > i.starts_at
      union all
      select r.node_id, 'gpu-' || u, 'needs-review', r.id, ${t}::timestamptz - interval '1 hour', r.ends_at, true, null
      from fleet_res r join fleet_nodes f on f.id = r.node_id cross join unnest(r.units) u
      where f.review and r.cancelled_at is null and r.ends_at > ${t}::timestamptz`),
    );
    // The VM rows look up their holder per node: without an index that lookup scans every
    // reservation of the fleet for each VM (quadratic: minutes at 10,000 nodes).
    await tx.execute(sql`create index on fleet_res (node_id)`);
    await tx.execute(sql`analyze fleet_res`);
    await timed('unit_intervals (VMs)', () =>
      tx.execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, vm_id, starts_at, ends_at, open, ended_by)
      select v.node_id, 'gpu-' || u, 'vm', h.id, v.id, v.started_at, v.terminated_at, v.terminated_at is null,
        case v.reason when 'reclaimed' then 'reclaim' when 'terminated' then 'terminate' end
      from fleet_vms v cross join unnest(v.units) u
      left join lateral (
        select r.id from fleet_res r
        where r.node_id = v.node_id and u = any(r.units) and r.starts_at <= v.started_at and r.ends_at > v.started_at
          and (r.cancelled_at is null or r.cancelled_at > v.started_at)
        limit 1
      ) h on true`),
    );

    // The audit trail, as the verbs write it. seq follows time (one global order), so on every
    // node commit order and recorded times agree (invariant times-follow-commit-order).
    await timed('audit_events', () =>
      tx.execute(sql`with e(at, actor, node_id, reservation_id, action, unit_ids, reason, details, tie) as (
        select ${t}::timestamptz - interval '60 days', 'org_platform', id, null, 'node.register', array['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7'], null,
          jsonb_build_object('name', 'Fleet H100 #' || i, 'ownerOrgId', owner, 'topologyGen', 1), 0
        from fleet_nodes
        union all
        select ${t}::timestamptz - interval '1 hour', 'org_platform', id, null, 'node.topology', array['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7'], null,
          jsonb_build_object('fromGen', 1, 'toGen', 2, 'added', '[]'::jsonb, 'removed', '[]'::jsonb, 'changed', '[]'::jsonb), 0
        from fleet_nodes where review
        union all
        select created_at, owner, node_id, id, 'reservation.create', unit_ids, null,
          -- As the verb writes it: no endsAt for an open-ended one (jsonb_strip_nulls).
          jsonb_strip_nulls(jsonb_build_object('allowedOrgIds', allowed, 'managingOrgIds', managing, 'startsAt', to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'endsAt', to_char(ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))), 1
        from fleet_res
        union all
        select ${t}::timestamptz - interval '9 days', 'org_helix', node_id, id, 'reservation.release', array['gpu-2', 'gpu-3'], null, jsonb_build_object('released', array['gpu-2', 'gpu-3']), 2
        from fleet_res where kind = 'active' and cardinality(released) > 0
        union all
        select cancelled_at, owner, node_id, id, 'reservation.cancel', unit_ids, 'Customer withdrew',
          jsonb_build_object('previousStatus', 'pending'), 2
        from fleet_res where cancelled_at is not null
        union all
        select started_at, org, node_id, res, 'vm.place', unit_ids, null, jsonb_build_object('vmId', id, 'tier', tier), 3
        from fleet_vms
        union all
        select terminated_at, org, node_id, null, 'vm.terminate', unit_ids, null, jsonb_build_object('vmId', id, 'tier', tier), 4
        from fleet_vms where reason = 'terminated'
        union all
        select terminated_at, 'org_helix', node_id, node_id || '-active', 'reservation.reclaim', array['gpu-2'], 'Capacity needed back',
          jsonb_build_object('terminated', jsonb_build_array(id), 'skipped', '[]'::jsonb), 4
        from fleet_vms where reason = 'reclaimed'),
      base as (select coalesce(max(seq), 0) as s from audit_events),
      keys as (select distinct on (org_id) org_id, id from api_keys where revoked_at is null order by org_id, id)
      insert into audit_events (seq, id, at, action, actor_org_id, actor_api_key_id, via, node_id, reservation_id, unit_ids, reason, details)
      select base.s + row_number() over (order by e.at, e.node_id, e.tie, e.details->>'vmId'),
        'evt_fleet_' || (base.s + row_number() over (order by e.at, e.node_id, e.tie, e.details->>'vmId')),
        e.at, e.action, e.actor, keys.id, 'api', e.node_id, e.reservation_id, e.unit_ids, e.reason, e.details
      from e cross join base join keys on keys.org_id = e.actor`),
    );
    await tx.execute(sql`select setval(pg_get_serial_sequence('audit_events', 'seq'), (select max(seq) from audit_events))`);

    // One notification per reclaimed VM, to its org (invariant reclaims-notified); older ones read.
    await timed('notifications', () =>
      tx.execute(sql`insert into notifications (id, org_id, at, kind, message, details, read_at)
      select 'ntf_fleet_' || v.id, v.org, v.terminated_at, 'vm.reclaimed',
        'Your spot VM ' || v.id || ' on node ' || v.node_id || ' (gpu-2) was terminated: the capacity holder reclaimed its units (reason: Capacity needed back).',
        jsonb_build_object('vmId', v.id, 'nodeId', v.node_id, 'unitIds', jsonb_build_array('gpu-2'), 'terminationReason', 'reclaimed',
          'terminatedAt', to_char(v.terminated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'reason', 'Capacity needed back'),
        case when v.i % 2 = 0 then v.terminated_at + interval '1 hour' end
      from fleet_vms v where v.reason = 'reclaimed' order by v.terminated_at, v.id`),
    );
    for (const { name, statement } of restore) await timed(name, () => tx.execute(sql.raw(statement)));
  });
  await timed('analyze', () => db.execute(sql`analyze`));
  return countFleet(db);
}

/** The tables the fleet fills. */
const FLEET_TABLES = [
  'nodes',
  'node_units',
  'node_topologies',
  'reservations',
  'reservation_orgs',
  'reservation_units',
  'vms',
  'vm_units',
  'unit_intervals',
  'audit_events',
  'notifications',
];

/**
 * Drops every constraint (but NOT NULL and CHECK, which cost nothing) and index of `tables`, and
 * every foreign key that points at them, as the catalogue defines them now — so whatever
 * migrations added later is restored too.
 * @returns the statements that re-create them, each with the name of what it re-creates, in an
 *   order that works: indexes and keys first, foreign keys last.
 */
async function dropConstraintsAndIndexes(tx: Tx, tables: readonly string[]): Promise<{ name: string; statement: string }[]> {
  const list = sql.join(
    tables.map((t) => sql`${t}::regclass`),
    sql`, `,
  );
  const constraints = await tx.execute<{ tbl: string; name: string; def: string; contype: string }>(sql`
    select c.conrelid::regclass::text as tbl, quote_ident(c.conname) as name, pg_get_constraintdef(c.oid) as def, c.contype::text as contype
    from pg_constraint c
    where c.contype in ('p', 'u', 'x', 'f') and (c.conrelid in (${list}) or c.confrelid in (${list}))
    order by case c.contype when 'f' then 0 else 1 end, c.conname`);
  const indexes = await tx.execute<{ name: string; def: string }>(sql`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i
    where i.indrelid in (${list}) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
    order by 1`);
  const rows = [...constraints];
  for (const c of rows) await tx.execute(sql.raw(`alter table ${c.tbl} drop constraint ${c.name}`));
  for (const i of indexes) await tx.execute(sql.raw(`drop index ${i.name}`));
  const add = (c: (typeof rows)[number]) => ({ name: c.name, statement: `alter table ${c.tbl} add constraint ${c.name} ${c.def}` });
  const keys = rows.filter((c) => c.contype !== 'f').map(add);
  const foreign = rows.filter((c) => c.contype === 'f').map(add);
  return [...indexes.map((i) => ({ name: i.name, statement: i.def })), ...keys, ...foreign];
}

/** Row counts of the tables the fleet fills (the whole database, demo seed included). */
export async function countFleet(db: Db): Promise<FleetCounts> {
  const [row] = await db.execute<Record<keyof FleetCounts, number>>(sql`select
    (select count(*)::int from nodes) as "nodes", (select count(*)::int from node_units) as "units",
    (select count(*)::int from reservations) as "reservations", (select count(*)::int from vms) as "vms",
    (select count(*)::int from vms where status = 'running') as "runningVms",
    (select count(*)::int from audit_events) as "auditEvents", (select count(*)::int from notifications) as "notifications"`);
  return row!;
}
