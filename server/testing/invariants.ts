/**
 * The invariant checker: SQL over a live database for every rule the fleet's rows must obey
 * at any instant, whatever the verbs did (docs/product.md §8 R1). One function per invariant,
 * each returning its violations with the ids, units and times needed to debug them;
 * `checkInvariants` runs them all over one snapshot. Used by the planted-fault tests
 * (invariants.test.ts), tests that want a clean bill after a scenario (e.g.
 * server/nodes/lock-clock.test.ts), and the storm (scripts/stress.ts). Released ⊆ reserved
 * needs no check: `released` is a flag on the reserved unit's own row (db/schema/reservations.ts).
 *
 * Two notions recur:
 * - A reservation **holds** a unit at instant t when the unit is in its `reservedUnitIds`, it
 *   is not cancelled and `[startsAt, endsAt)` covers t (docs/product.md §3, §4). A hold is one
 *   interval: `startsAt` never changes, a cancel is final, and PATCH can move `endsAt` only
 *   while the reservation has not ended and only into the future, so "held at t ≤ now" can be
 *   decided from the reservation's current row.
 * - **Commit order** on a node: every writer takes the node lock first (docs/product.md §7), and
 *   audit events are inserted under it, so the audit `seq` of two events on one node orders
 *   their transactions exactly; timestamps only order them to the millisecond. Checks that
 *   need "did A happen before B" use `seq` where both sides have an event and fall back to
 *   times otherwise, giving the benefit of the doubt (no violation) to a tie they cannot break.
 */
import type { Db, DbOrTx } from '@/db/client';
import { sql, type SQL } from 'drizzle-orm';

export const invariantNames = [
  'single-running-vm',
  'vm-units-agree',
  'no-spot-on-unreleased-unit',
  'no-reserved-vm-on-released-unit',
  'no-placement-on-withheld-unit',
  'no-overlapping-reservations',
  'audit-complete',
  'reclaims-notified',
  'times-follow-commit-order',
  'intervals-agree',
] as const;
export type InvariantName = (typeof invariantNames)[number];

/** One broken rule: which invariant, which way it broke (`kind`), a sentence, and the rows. */
export type Violation = { invariant: InvariantName; kind: string; message: string; details: Record<string, unknown> };

export type CheckOptions = {
  /** The instant "now" means for the rules about current holds; default: the database's clock. */
  now?: Date;
  /**
   * Changes at or after this instant must carry their audit events and notifications. Rows
   * written before it came from the factories (the demo seed, test scenes), which write rows
   * directly and no audit by design (db/factories.ts). Default: every row is held to it.
   */
  auditSince?: Date;
};

/** What each check receives: both instants as ISO strings (drizzle hands timestamps through as text). */
export type CheckScope = { now: string; auditSince: string | null };

export type InvariantCheck = (db: DbOrTx, scope: CheckScope) => Promise<Violation[]>;

type Row = Record<string, unknown>;

async function rows<T extends Row>(db: DbOrTx, query: SQL): Promise<T[]> {
  return [...(await db.execute<T>(query))] as T[];
}

/** A timestamp column as ISO 8601 UTC with milliseconds, the API's format (docs/product.md §5). */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** `auditSince` as a predicate on a timestamp column: true when every row is in scope. */
function since(scope: CheckScope, column: string): SQL {
  return scope.auditSince ? sql`${sql.raw(column)} >= ${scope.auditSince}::timestamptz` : sql`true`;
}

/** The reservation `r` holds its units at `now` (not cancelled, period covers it). */
function holdsAt(now: string): SQL {
  return sql`r.cancelled_at is null and r.starts_at <= ${now}::timestamptz and (r.ends_at is null or r.ends_at > ${now}::timestamptz)`;
}

/**
 * Invariant 1 — a unit runs at most one VM (docs/product.md §5.3, §7). Rule: no (node, unit)
 * has two distinct VMs that are running by either record, the VM row's `status` or the unit
 * row's `running` flag. The partial unique index only sees the flag, so a VM whose row says
 * running while its flag says otherwise (invariant 2) would let a second VM in unseen.
 */
export const singleRunningVm: InvariantCheck = async (db) => {
  const found = await rows<{ node_id: string; unit_id: string; vm_ids: string[] }>(
    db,
    sql`select vu.node_id, vu.unit_id, array_agg(distinct vu.vm_id order by vu.vm_id) as vm_ids
        from vm_units vu join vms v on v.id = vu.vm_id
        where v.status = 'running' or vu.running
        group by vu.node_id, vu.unit_id
        having count(distinct vu.vm_id) > 1
        order by vu.node_id, vu.unit_id`,
  );
  return found.map((r) => ({
    invariant: 'single-running-vm',
    kind: 'two-running-vms',
    message: `Unit ${r.node_id}/${r.unit_id} runs ${r.vm_ids.length} VMs: ${r.vm_ids.join(', ')}.`,
    details: { nodeId: r.node_id, unitId: r.unit_id, vmIds: r.vm_ids },
  }));
};

/**
 * Invariant 2 — a VM row and its unit rows agree (docs/product.md §7). Rules: every VM has at
 * least one unit row, on its own node; each unit row's `running` equals the VM's
 * `status = 'running'`; a running VM's units exist on the node now (a topology change may not
 * remove a unit that runs a VM, §5.4); `status`, `terminatedAt` and `terminationReason` agree
 * and a VM does not end before it starts; a reserved-tier VM names a reservation on its node and
 * no other tier names one (§5.3). Several of these are CHECKs too; the checker holds them
 * whether or not the constraints are in place.
 */
export const vmUnitsAgree: InvariantCheck = async (db) => {
  const found = await rows<{ kind: string; vm_id: string; node_id: string; unit_id: string | null; info: string }>(
    db,
    sql`select 'vm-without-units' as kind, v.id as vm_id, v.node_id, null as unit_id, v.status as info
          from vms v where not exists (select 1 from vm_units vu where vu.vm_id = v.id)
        union all
        select 'unit-flag-disagrees', v.id, v.node_id, vu.unit_id, 'status ' || v.status || ', unit row running=' || vu.running
          from vms v join vm_units vu on vu.vm_id = v.id where vu.running <> (v.status = 'running')
        union all
        select 'unit-on-other-node', v.id, v.node_id, vu.unit_id, 'unit row on node ' || vu.node_id
          from vms v join vm_units vu on vu.vm_id = v.id where vu.node_id <> v.node_id
        union all
        select 'running-on-missing-unit', v.id, v.node_id, vu.unit_id, 'the node has no such unit now'
          from vms v join vm_units vu on vu.vm_id = v.id
          where v.status = 'running' and not exists (select 1 from node_units nu where nu.node_id = vu.node_id and nu.unit_id = vu.unit_id)
        union all
        select 'termination-fields', v.id, v.node_id, null, 'status ' || v.status || ', terminatedAt ' || coalesce(${iso('v.terminated_at')}, 'null') || ', reason ' || coalesce(v.termination_reason, 'null') || ', startedAt ' || ${iso('v.started_at')}
          from vms v
          where (v.status = 'running' and (v.terminated_at is not null or v.termination_reason is not null))
             or (v.status = 'terminated' and (v.terminated_at is null or v.termination_reason is null))
             or v.status not in ('running', 'terminated')
             or v.terminated_at < v.started_at
        union all
        select 'tier-reservation', v.id, v.node_id, null, 'tier ' || v.tier || ', reservationId ' || coalesce(v.reservation_id, 'null')
          from vms v
          where (v.tier = 'reserved') <> (v.reservation_id is not null)
             or (v.reservation_id is not null and not exists (select 1 from reservations r where r.node_id = v.node_id and r.id = v.reservation_id))
        order by 1, 2, 4`,
  );
  return found.map((r) => ({
    invariant: 'vm-units-agree',
    kind: r.kind,
    message: `VM ${r.vm_id} on ${r.node_id}${r.unit_id ? `/${r.unit_id}` : ''}: ${r.kind} (${r.info}).`,
    details: { vmId: r.vm_id, nodeId: r.node_id, ...(r.unit_id ? { unitId: r.unit_id } : {}), info: r.info },
  }));
};

/**
 * Invariant 3 — no spot VM on a reserved unit that is not released (docs/product.md §3, §5.3).
 * Rule: no running VM that is not the holder's own reserved-tier VM sits on a unit whose
 * reservation holds it now, has not released it, and held it already when the VM started
 * (`startedAt ≥ startsAt`).
 *
 * Why the start-time bound: a reservation may be created over units that run a VM as long as
 * its period starts later (§5 create: `unit_occupied` only "if the period covers now"), and when
 * the period begins the VM keeps running (§5.3: "they keep running"), so a VM from before the
 * hold is legal. A VM placed during the hold could only use the unit while it was released
 * (spot) or as the holder's reserved VM: on-demand needs `free`, another reservation's reserved
 * VM would need an overlapping hold, and the one way a unit leaves the market, reclaim, ends
 * the spot VMs on it whenever the reservation holds it then — which, the hold being one
 * interval that covers both the start and now, it did. The same holds while the reservation is
 * needs-review, so no exemption is made for it: withheld units take no placement (invariant 5)
 * and reclaim evicts by hold, not status (§9 b).
 */
export const noSpotOnUnreleasedUnit: InvariantCheck = async (db, scope) => {
  const found = await rows<{
    vm_id: string;
    tier: string;
    org_id: string;
    node_id: string;
    unit_id: string;
    reservation_id: string;
    started_at: string;
    starts_at: string;
  }>(
    db,
    sql`select v.id as vm_id, v.tier, v.org_id, vu.node_id, vu.unit_id, r.id as reservation_id, ${iso('v.started_at')} as started_at, ${iso('r.starts_at')} as starts_at
        from vms v
        join vm_units vu on vu.vm_id = v.id
        join reservation_units ru on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and not ru.released
        join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
        where v.status = 'running'
          and ${holdsAt(scope.now)}
          and v.started_at >= r.starts_at
          and not (v.tier = 'reserved' and v.reservation_id = r.id)
        order by vu.node_id, vu.unit_id, v.id`,
  );
  return found.map((r) => ({
    invariant: 'no-spot-on-unreleased-unit',
    kind: `${r.tier}-on-unreleased-unit`,
    message: `${r.tier} VM ${r.vm_id} (started ${r.started_at}) runs on ${r.node_id}/${r.unit_id}, held since ${r.starts_at} by reservation ${r.reservation_id} and not released.`,
    details: {
      vmId: r.vm_id,
      tier: r.tier,
      orgId: r.org_id,
      nodeId: r.node_id,
      unitId: r.unit_id,
      reservationId: r.reservation_id,
      startedAt: r.started_at,
      reservationStartsAt: r.starts_at,
    },
  }));
};

/**
 * Invariant 4 — no reserved VM on a released unit (docs/product.md §5.2, §5.3). Rule: every
 * running VM on a unit that its current reservation (holding now) has released is spot-tier.
 * No time bound is needed: release refuses units that run any VM (§5.2 `unit_occupied`), and
 * a released unit takes only spot placements, so a reserved or on-demand VM there is a bug
 * whenever it started.
 */
export const noReservedVmOnReleasedUnit: InvariantCheck = async (db, scope) => {
  const found = await rows<{ vm_id: string; tier: string; node_id: string; unit_id: string; reservation_id: string; started_at: string }>(
    db,
    sql`select v.id as vm_id, v.tier, vu.node_id, vu.unit_id, r.id as reservation_id, ${iso('v.started_at')} as started_at
        from vms v
        join vm_units vu on vu.vm_id = v.id
        join reservation_units ru on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and ru.released
        join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
        where v.status = 'running' and v.tier <> 'spot' and ${holdsAt(scope.now)}
        order by vu.node_id, vu.unit_id, v.id`,
  );
  return found.map((r) => ({
    invariant: 'no-reserved-vm-on-released-unit',
    kind: `${r.tier}-on-released-unit`,
    message: `${r.tier} VM ${r.vm_id} (started ${r.started_at}) runs on ${r.node_id}/${r.unit_id}, which reservation ${r.reservation_id} has released to the spot market.`,
    details: { vmId: r.vm_id, tier: r.tier, nodeId: r.node_id, unitId: r.unit_id, reservationId: r.reservation_id, startedAt: r.started_at },
  }));
};

/**
 * The node's topology generations with the instant and, when audited, the `seq` of the
 * change that made each (gen 1: registration).
 */
const TOPOLOGY_CTE = sql`topo as (
  select t.node_id, t.gen, t.created_at as at, e.seq
  from node_topologies t
  left join (select node_id, (details->>'toGen')::int as gen, min(seq) as seq from audit_events where action = 'node.topology' group by 1, 2) e
    on e.node_id = t.node_id and e.gen = t.gen)`;

/**
 * `a` committed before `b` on the same node: by audit seq when both have one (exact), else by
 * time (a tie is not "before").
 */
const before = (a: string, b: string) =>
  sql.raw(`(case when ${a}.seq is not null and ${b}.seq is not null then ${a}.seq < ${b}.seq else ${a}.at < ${b}.at end)`);

/** The node generation in force when the event `x` (columns node_id, at, seq) committed. */
const nodeGenAt = (x: string) => sql`(select max(t.gen) from topo t where t.node_id = ${sql.raw(x)}.node_id and (t.gen = 1 or ${before('t', x)}))`;

/**
 * Invariant 5 — no placement is accepted on a withheld unit (docs/product.md §3 state 1, §5.3,
 * §5.4). Rule: for every VM and each of its units, no reservation held the unit at the
 * placement while being needs-review then, i.e. written against an older generation than the
 * node's at that moment.
 *
 * History is rebuilt from what the database keeps:
 * - the placement's position: the VM's `vm.place` event (`seq`, `at`), else its `startedAt`;
 * - the node's generation then: `node_topologies` (each generation's `createdAt`, and the
 *   `seq` of its `node.topology` event), counting the generations that committed before the
 *   placement;
 * - the reservation's generation then: its `reservation.reaffirm` events (`fromGen` → `toGen`):
 *   the `toGen` of the last one before the placement, else the `fromGen` of the first one
 *   after it, else its current `topologyGen` (it never changed);
 * - whether it held the unit then: created by then, not cancelled by then, period covering the
 *   placement, and the unit among its units then — its unit rows now plus the units PATCH
 *   removed later (`reservation.update` events' `details.removedUnitIds`).
 * Limits: a tie the audit cannot break (same millisecond, one side unaudited) counts the
 * topology change after and the re-affirm before the placement, so such a race is missed,
 * never invented; cancel and PATCH are ordered by time only; with the audit trail itself
 * broken (invariant 7) the reconstruction may be wrong too.
 */
export const noPlacementOnWithheldUnit: InvariantCheck = async (db) => {
  const found = await rows<{
    vm_id: string;
    tier: string;
    node_id: string;
    unit_id: string;
    reservation_id: string;
    at: string;
    seq: number | null;
    node_gen: number;
    res_gen: number;
  }>(
    db,
    sql`with ${TOPOLOGY_CTE},
        reaffirms as (
          select e.node_id, e.reservation_id, e.at, e.seq, (e.details->>'fromGen')::int as from_gen, (e.details->>'toGen')::int as to_gen
          from audit_events e where e.action = 'reservation.reaffirm'),
        placements as (
          select v.id, v.node_id, v.tier, v.started_at as at, e.seq
          from vms v
          left join (select node_id, details->>'vmId' as vm_id, min(seq) as seq from audit_events where action = 'vm.place' group by 1, 2) e
            on e.node_id = v.node_id and e.vm_id = v.id),
        unit_spans as (
          select ru.node_id, ru.reservation_id, ru.unit_id, null::timestamptz as left_at from reservation_units ru
          union all
          select e.node_id, e.reservation_id, u.unit_id, e.at
          from audit_events e cross join lateral jsonb_array_elements_text(coalesce(e.details->'removedUnitIds', '[]'::jsonb)) as u(unit_id)
          where e.action = 'reservation.update'),
        held as (
          select p.id as vm_id, p.tier, p.node_id, p.at, p.seq, vu.unit_id, r.id as reservation_id, r.topology_gen
          from placements p
          join vm_units vu on vu.vm_id = p.id
          join unit_spans us on us.node_id = vu.node_id and us.unit_id = vu.unit_id and (us.left_at is null or us.left_at > p.at)
          join reservations r on r.node_id = us.node_id and r.id = us.reservation_id
          where r.created_at <= p.at and r.starts_at <= p.at and (r.ends_at is null or r.ends_at > p.at) and (r.cancelled_at is null or r.cancelled_at > p.at)),
        judged as (
          select h.*, ${nodeGenAt('h')} as node_gen,
            coalesce(
              (select ra.to_gen from reaffirms ra where ra.node_id = h.node_id and ra.reservation_id = h.reservation_id and not ${before('h', 'ra')} order by ra.seq desc limit 1),
              (select ra.from_gen from reaffirms ra where ra.node_id = h.node_id and ra.reservation_id = h.reservation_id and ${before('h', 'ra')} order by ra.seq asc limit 1),
              h.topology_gen) as res_gen
          from held h)
        select vm_id, tier, node_id, unit_id, reservation_id, ${iso('at')} as at, seq, node_gen, res_gen
        from judged where res_gen < node_gen
        order by node_id, unit_id, vm_id`,
  );
  return found.map((r) => ({
    invariant: 'no-placement-on-withheld-unit',
    kind: 'placed-on-withheld-unit',
    message: `${r.tier} VM ${r.vm_id} was placed at ${r.at} on ${r.node_id}/${r.unit_id} while reservation ${r.reservation_id} (generation ${r.res_gen}) held it at node generation ${r.node_gen}: the unit was withheld.`,
    details: {
      vmId: r.vm_id,
      tier: r.tier,
      nodeId: r.node_id,
      unitId: r.unit_id,
      reservationId: r.reservation_id,
      placedAt: r.at,
      placeSeq: r.seq === null ? null : Number(r.seq),
      nodeGen: r.node_gen,
      reservationGen: r.res_gen,
    },
  }));
};

/**
 * Invariant 6 — non-cancelled reservations of a unit never overlap (docs/product.md §4). Rules:
 * no two non-cancelled reservations share a unit in overlapping half-open periods, judged on
 * the reservations' own rows; and each unit row's copy of the period and of `cancelled`
 * agrees with its reservation, since the exclusion constraint sees only the copies (a copy
 * that disagrees lets an overlap through unseen).
 */
export const noOverlappingReservations: InvariantCheck = async (db) => {
  const overlaps = await rows<{ node_id: string; unit_id: string; a: string; b: string; a_period: string; b_period: string }>(
    db,
    sql`select ua.node_id, ua.unit_id, ra.id as a, rb.id as b,
          ${iso('ra.starts_at')} || ' – ' || coalesce(${iso('ra.ends_at')}, '∞') as a_period,
          ${iso('rb.starts_at')} || ' – ' || coalesce(${iso('rb.ends_at')}, '∞') as b_period
        from reservation_units ua
        join reservation_units ub on ub.node_id = ua.node_id and ub.unit_id = ua.unit_id and ub.reservation_id > ua.reservation_id
        join reservations ra on ra.node_id = ua.node_id and ra.id = ua.reservation_id
        join reservations rb on rb.node_id = ub.node_id and rb.id = ub.reservation_id
        where ra.cancelled_at is null and rb.cancelled_at is null
          and ra.starts_at < coalesce(rb.ends_at, 'infinity') and rb.starts_at < coalesce(ra.ends_at, 'infinity')
        order by 1, 2, 3, 4`,
  );
  const copies = await rows<{ node_id: string; unit_id: string; reservation_id: string; info: string }>(
    db,
    sql`select ru.node_id, ru.unit_id, ru.reservation_id,
          'unit row ' || ${iso('ru.starts_at')} || ' – ' || coalesce(${iso('ru.ends_at')}, '∞') || ' cancelled=' || ru.cancelled ||
          ', reservation ' || ${iso('r.starts_at')} || ' – ' || coalesce(${iso('r.ends_at')}, '∞') || ' cancelled=' || (r.cancelled_at is not null) as info
        from reservation_units ru join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
        where ru.starts_at <> r.starts_at or ru.ends_at is distinct from r.ends_at or ru.cancelled <> (r.cancelled_at is not null)
        order by 1, 3, 2`,
  );
  return [
    ...overlaps.map((r) => ({
      invariant: 'no-overlapping-reservations' as const,
      kind: 'overlap',
      message: `Reservations ${r.a} (${r.a_period}) and ${r.b} (${r.b_period}) both hold ${r.node_id}/${r.unit_id}.`,
      details: { nodeId: r.node_id, unitId: r.unit_id, reservationIds: [r.a, r.b], periods: [r.a_period, r.b_period] },
    })),
    ...copies.map((r) => ({
      invariant: 'no-overlapping-reservations' as const,
      kind: 'unit-copy-disagrees',
      message: `Reservation ${r.reservation_id}'s row for ${r.node_id}/${r.unit_id} disagrees with the reservation (${r.info}).`,
      details: { nodeId: r.node_id, unitId: r.unit_id, reservationId: r.reservation_id, info: r.info },
    })),
  ];
};

/**
 * Invariant 7 — every placement, termination, reclaim, topology change and re-affirm has
 * exactly one audit event (docs/product.md §5 Audit events, §5.1 step 7, §7). Rules, each a
 * `kind`:
 * - `placement`: every VM started at or after `auditSince` has exactly one `vm.place` event
 *   naming it (`details.vmId`) on its node at its `startedAt`; no `vm.place` event names a VM
 *   that does not exist.
 * - `termination`: every VM ended at or after `auditSince` is named by exactly one event that
 *   ended it, at its `terminatedAt` — a `vm.terminate` event when its reason is `terminated`,
 *   one `reservation.reclaim` event's `details.terminated` when it is `reclaimed` — and by no
 *   event of the other kind; no such event names a VM that did not end that way.
 * - `topology`: every generation above 1 created at or after `auditSince` has exactly one
 *   `node.topology` event (`details.toGen`, `fromGen` = gen − 1, at its `createdAt`); no such
 *   event lacks its generation; a node's `topologyGen` is its newest generation.
 * - `reaffirm`: a reservation's re-affirm events form one chain — each moves the generation up
 *   (one that changes nothing writes nothing), to the node's generation at that moment, from
 *   where the previous one left it (the first from the generation the reservation was created
 *   at, when its `reservation.create` event says when) — and the chain ends at the
 *   reservation's `topologyGen`: a re-affirm without its event breaks the chain.
 * Limits: a reclaim or release that terminated nothing leaves no state to find its event by;
 * the storm checks those against their acknowledged answers instead.
 */
export const auditComplete: InvariantCheck = async (db, scope) => {
  const placement = await rows<{ vm_id: string; node_id: string | null; info: string }>(
    db,
    sql`with pe as (
          select e.details->>'vmId' as vm_id, count(*)::int as n,
            bool_and(v.id is not null and e.node_id = v.node_id and e.at = v.started_at) as agree
          from audit_events e left join vms v on v.id = e.details->>'vmId'
          where e.action = 'vm.place' group by 1)
        select v.id as vm_id, v.node_id, coalesce(pe.n, 0) || ' vm.place events' || case when pe.agree is false then ', one on another node or at another time' else '' end as info
        from vms v left join pe on pe.vm_id = v.id
        where ${since(scope, 'v.started_at')} and (coalesce(pe.n, 0) <> 1 or pe.agree is false)
        union all
        select pe.vm_id, null, 'a vm.place event names a VM that does not exist' from pe
        where not exists (select 1 from vms v where v.id = pe.vm_id)
        order by 1`,
  );
  const termination = await rows<{ vm_id: string; node_id: string | null; info: string }>(
    db,
    sql`with ends as (
          select e.details->>'vmId' as vm_id, 'terminated' as reason, e.node_id, e.at, e.id from audit_events e where e.action = 'vm.terminate'
          union all
          select t.vm_id, 'reclaimed', e.node_id, e.at, e.id from audit_events e cross join lateral jsonb_array_elements_text(coalesce(e.details->'terminated', '[]'::jsonb)) as t(vm_id)
          where e.action = 'reservation.reclaim'),
        per_vm as (
          select vm_id, count(*) filter (where reason = 'terminated')::int as terminate_events, count(*) filter (where reason = 'reclaimed')::int as reclaim_events,
            array_agg(reason || '@' || ${iso('at')} || ' on ' || node_id order by at) as events
          from ends group by vm_id)
        select v.id as vm_id, v.node_id,
          'status ' || v.status || coalesce(', reason ' || v.termination_reason || ' at ' || ${iso('v.terminated_at')}, '') || '; ' ||
          coalesce(p.terminate_events, 0) || ' vm.terminate and ' || coalesce(p.reclaim_events, 0) || ' reclaim events' || coalesce(': ' || array_to_string(p.events, ', '), '') as info
        from vms v left join per_vm p on p.vm_id = v.id
        where (v.status = 'terminated' and ${since(scope, 'v.terminated_at')} and (
                 (v.termination_reason = 'terminated' and (coalesce(p.terminate_events, 0) <> 1 or coalesce(p.reclaim_events, 0) <> 0))
              or (v.termination_reason = 'reclaimed' and (coalesce(p.reclaim_events, 0) <> 1 or coalesce(p.terminate_events, 0) <> 0))
              or exists (select 1 from ends x where x.vm_id = v.id and (x.node_id <> v.node_id or x.at <> v.terminated_at))))
           or (p.vm_id is not null and (v.status = 'running'
              or (p.terminate_events > 0 and v.termination_reason is distinct from 'terminated')
              or (p.reclaim_events > 0 and v.termination_reason is distinct from 'reclaimed')))
        union all
        select p.vm_id, null, 'ending events name a VM that does not exist: ' || array_to_string(p.events, ', ') from per_vm p
        where not exists (select 1 from vms v where v.id = p.vm_id)
        order by 1`,
  );
  const topology = await rows<{ node_id: string; gen: number | null; info: string }>(
    db,
    sql`with te as (
          select e.node_id, (e.details->>'toGen')::int as gen, count(*)::int as n,
            bool_and((e.details->>'fromGen')::int = (e.details->>'toGen')::int - 1) as chained, array_agg(${iso('e.at')}) as ats, min(e.at) as at
          from audit_events e where e.action = 'node.topology' group by 1, 2)
        select t.node_id, t.gen, coalesce(te.n, 0) || ' node.topology events' ||
          case when te.chained is false then ', fromGen is not gen - 1' else '' end ||
          case when te.n = 1 and te.at <> t.created_at then ', at ' || te.ats[1] || ' but the generation was created at ' || ${iso('t.created_at')} else '' end as info
        from node_topologies t left join te on te.node_id = t.node_id and te.gen = t.gen
        where t.gen > 1 and ${since(scope, 't.created_at')} and (coalesce(te.n, 0) <> 1 or te.chained is false or te.at <> t.created_at)
        union all
        select te.node_id, te.gen, 'a node.topology event names a generation the node does not have' from te
        where not exists (select 1 from node_topologies t where t.node_id = te.node_id and t.gen = te.gen)
        union all
        select n.id, n.topology_gen, 'the node is at generation ' || n.topology_gen || ' but its newest recorded generation is ' || coalesce(max(t.gen)::text, 'none')
        from nodes n left join node_topologies t on t.node_id = n.id group by n.id having n.topology_gen is distinct from max(t.gen)
        order by 1, 2`,
  );
  const reaffirm = await rows<{ node_id: string; reservation_id: string; info: string }>(
    db,
    sql`with ${TOPOLOGY_CTE},
        chain as (
          select e.node_id, e.reservation_id, e.seq, e.at, (e.details->>'fromGen')::int as from_gen, (e.details->>'toGen')::int as to_gen,
            lag((e.details->>'toGen')::int) over (partition by e.node_id, e.reservation_id order by e.seq) as prev_to,
            row_number() over (partition by e.node_id, e.reservation_id order by e.seq) as i,
            row_number() over (partition by e.node_id, e.reservation_id order by e.seq desc) as from_end
          from audit_events e where e.action = 'reservation.reaffirm'),
        created as (
          select r.node_id, r.id as reservation_id, r.topology_gen,
            (select ${nodeGenAt('c')} from (select e.node_id, e.at, e.seq from audit_events e
               where e.action = 'reservation.create' and e.node_id = r.node_id and e.reservation_id = r.id order by e.seq limit 1) c) as initial_gen
          from reservations r)
        select c.node_id, c.reservation_id, 're-affirm at ' || ${iso('c.at')} || ' moved generation ' || c.from_gen || ' → ' || c.to_gen || ' but ' ||
          case when c.to_gen <= c.from_gen then 'a re-affirm must move it up'
               when c.to_gen <> ${nodeGenAt('c')} then 'the node was at ' || ${nodeGenAt('c')}
               when c.prev_to is not null then 'the previous re-affirm left it at ' || c.prev_to
               else 'the reservation was created at ' || cr.initial_gen end as info
        from chain c left join created cr on cr.node_id = c.node_id and cr.reservation_id = c.reservation_id
        where c.to_gen <= c.from_gen or c.to_gen <> ${nodeGenAt('c')}
           or (c.prev_to is not null and c.from_gen <> c.prev_to)
           or (c.i = 1 and cr.initial_gen is not null and c.from_gen <> cr.initial_gen)
        union all
        select cr.node_id, cr.reservation_id, 'the reservation is at generation ' || cr.topology_gen || ' but its ' ||
          coalesce('last re-affirm event moved it to ' || c.to_gen, 'reservation.create event says it was created at ' || cr.initial_gen)
        from created cr left join chain c on c.node_id = cr.node_id and c.reservation_id = cr.reservation_id and c.from_end = 1
        where cr.topology_gen <> coalesce(c.to_gen, cr.initial_gen)
        order by 1, 2`,
  );
  return [
    ...placement.map((r) => ({
      invariant: 'audit-complete' as const,
      kind: 'placement',
      message: `VM ${r.vm_id}${r.node_id ? ` on ${r.node_id}` : ''}: ${r.info}.`,
      details: { vmId: r.vm_id, ...(r.node_id ? { nodeId: r.node_id } : {}), info: r.info },
    })),
    ...termination.map((r) => ({
      invariant: 'audit-complete' as const,
      kind: 'termination',
      message: `VM ${r.vm_id}${r.node_id ? ` on ${r.node_id}` : ''}: ${r.info}.`,
      details: { vmId: r.vm_id, ...(r.node_id ? { nodeId: r.node_id } : {}), info: r.info },
    })),
    ...topology.map((r) => ({
      invariant: 'audit-complete' as const,
      kind: 'topology',
      message: `Node ${r.node_id}${r.gen != null ? ` generation ${r.gen}` : ''}: ${r.info}.`,
      details: { nodeId: r.node_id, gen: r.gen, info: r.info },
    })),
    ...reaffirm.map((r) => ({
      invariant: 'audit-complete' as const,
      kind: 'reaffirm',
      message: `Reservation ${r.reservation_id} on ${r.node_id}: ${r.info}.`,
      details: { nodeId: r.node_id, reservationId: r.reservation_id, info: r.info },
    })),
  ];
};

/**
 * Invariant 8 — every reclaimed VM gets exactly one `vm.reclaimed` notification, to its org
 * (docs/product.md §5.1 step 7, §5 Notification). Rules: a VM terminated with reason `reclaimed`
 * at or after `auditSince` has exactly one such notification addressed to its org, none to any
 * other org, and that one's `details` name its node and `terminatedAt`; no `vm.reclaimed`
 * notification names a VM that was not reclaimed.
 */
export const reclaimsNotified: InvariantCheck = async (db, scope) => {
  const found = await rows<{ vm_id: string; info: string }>(
    db,
    sql`with n as (
          select x.details->>'vmId' as vm_id, x.org_id, x.details->>'nodeId' as node_id, x.details->>'terminatedAt' as terminated_at from notifications x where x.kind = 'vm.reclaimed'),
        per_vm as (
          select v.id as vm_id, v.org_id, v.node_id, ${iso('v.terminated_at')} as terminated_at,
            count(n.vm_id) filter (where n.org_id = v.org_id)::int as to_owner,
            count(n.vm_id) filter (where n.org_id <> v.org_id)::int as to_others,
            bool_and(n.vm_id is null or (n.node_id = v.node_id and n.terminated_at = ${iso('v.terminated_at')})) as agree
          from vms v left join n on n.vm_id = v.id
          where v.status = 'terminated' and v.termination_reason = 'reclaimed' and ${since(scope, 'v.terminated_at')}
          group by v.id, v.org_id, v.node_id, v.terminated_at)
        select vm_id, to_owner || ' notifications to its org ' || org_id || ', ' || to_others || ' to other orgs' ||
          case when agree then '' else ', details disagree with the VM (node ' || node_id || ', terminatedAt ' || terminated_at || ')' end as info
        from per_vm where to_owner <> 1 or to_others <> 0 or not agree
        union all
        select n.vm_id, 'a vm.reclaimed notification to ' || n.org_id || ' names a VM that was not reclaimed' from n
        where not exists (select 1 from vms v where v.id = n.vm_id and v.termination_reason = 'reclaimed')
        order by 1`,
  );
  return found.map((r) => ({
    invariant: 'reclaims-notified',
    kind: 'notification',
    message: `VM ${r.vm_id}: ${r.info}.`,
    details: { vmId: r.vm_id, info: r.info },
  }));
};

/**
 * Invariant 9 — recorded times follow commit order (docs/product.md §4 "One clock", §9 c).
 * Rule: on each node, audit events in `seq` order (= commit order, see above) have
 * non-decreasing `at`: a writer reads the clock once it holds the node lock, after the
 * previous writer committed, so its times cannot precede that writer's.
 */
export const timesFollowCommitOrder: InvariantCheck = async (db) => {
  const found = await rows<{ node_id: string; seq: number; action: string; at: string; prev_seq: number; prev_action: string; prev_at: string }>(
    db,
    sql`select node_id, seq, action, ${iso('at')} as at, prev_seq, prev_action, ${iso('prev_at')} as prev_at from (
          select node_id, seq, action, at,
            lag(seq) over w as prev_seq, lag(action) over w as prev_action, lag(at) over w as prev_at
          from audit_events window w as (partition by node_id order by seq)) x
        where at < prev_at order by node_id, seq`,
  );
  return found.map((r) => ({
    invariant: 'times-follow-commit-order',
    kind: 'time-before-previous-commit',
    message: `On ${r.node_id}, ${r.action} (seq ${r.seq}) is recorded at ${r.at}, before ${r.prev_action} (seq ${r.prev_seq}) at ${r.prev_at}, which committed first.`,
    details: { nodeId: r.node_id, seq: Number(r.seq), action: r.action, at: r.at, previous: { seq: Number(r.prev_seq), action: r.prev_action, at: r.prev_at } },
  }));
};

/**
 * Invariant 10 — the record of unit intervals agrees with the rows it records (docs/product.md
 * §5.8): the verbs write both in one transaction, so at every instant
 * - each unit of a reservation not cancelled has exactly one open `reserved` row, and no open
 *   row of a reservation names a unit it no longer has, or belongs to a cancelled one;
 * - a unit of a reservation not cancelled is released exactly when the reservation has an open
 *   `released` row for it;
 * - an open row's planned end is its reservation's `endsAt`;
 * - a VM's unit runs it exactly when the VM has an open `vm` row on it, which began at the VM's
 *   `startedAt`; a closed one ended at its `terminatedAt`;
 * - an open `needs-review` row belongs to a reservation at an older topology than its node's;
 * - of a reservation's rows of one kind on one unit, only the last written can be open: what
 *   the verbs' one probe per unit and kind for its open row rests on (server/intervals/record.ts).
 */
export const intervalsAgree: InvariantCheck = async (db) => {
  const found = await rows<{ kind: string; node_id: string; subject: string; unit_id: string; info: string }>(
    db,
    sql`select 'reserved-interval-count' as kind, ru.node_id, ru.reservation_id as subject, ru.unit_id, count(i.id) || ' open reserved rows' as info
          from reservation_units ru join reservations r on r.node_id = ru.node_id and r.id = ru.reservation_id
          left join unit_intervals i on i.node_id = ru.node_id and i.reservation_id = ru.reservation_id and i.unit_id = ru.unit_id and i.kind = 'reserved' and i.open
          where r.cancelled_at is null group by ru.node_id, ru.reservation_id, ru.unit_id having count(i.id) <> 1
        union all
        select 'open-interval-without-unit', i.node_id, i.reservation_id, i.unit_id, i.kind || coalesce(', reservation cancelled at ' || ${iso('r.cancelled_at')}, ', unit not in the reservation')
          from unit_intervals i left join reservations r on r.node_id = i.node_id and r.id = i.reservation_id
          where i.open and i.kind <> 'vm' and (r.cancelled_at is not null or not exists (
            select 1 from reservation_units ru where ru.node_id = i.node_id and ru.reservation_id = i.reservation_id and ru.unit_id = i.unit_id))
        union all
        select 'released-flag-disagrees', ru.node_id, ru.reservation_id, ru.unit_id, 'released=' || ru.released
          from reservation_units ru
          where not ru.cancelled and ru.released <> exists (select 1 from unit_intervals i
            where i.node_id = ru.node_id and i.reservation_id = ru.reservation_id and i.unit_id = ru.unit_id and i.kind = 'released' and i.open)
        union all
        select 'open-end-disagrees', i.node_id, i.reservation_id, i.unit_id, i.kind || ' ends ' || coalesce(${iso('i.ends_at')}, 'never') || ', reservation ' || coalesce(${iso('r.ends_at')}, 'never')
          from unit_intervals i join reservations r on r.node_id = i.node_id and r.id = i.reservation_id
          where i.open and i.kind <> 'vm' and i.ends_at is distinct from r.ends_at
        union all
        select 'vm-interval-disagrees', vu.node_id, vu.vm_id, vu.unit_id, 'running=' || vu.running || ', ' || count(i.id) || ' open rows'
          from vm_units vu left join unit_intervals i on i.vm_id = vu.vm_id and i.unit_id = vu.unit_id and i.open
          group by vu.node_id, vu.vm_id, vu.unit_id, vu.running having count(i.id) <> (case when vu.running then 1 else 0 end)
        union all
        select 'vm-interval-times', i.node_id, i.vm_id, i.unit_id, 'row ' || ${iso('i.starts_at')} || '–' || coalesce(${iso('i.ends_at')}, 'open') || ', VM ' || ${iso('v.started_at')} || '–' || coalesce(${iso('v.terminated_at')}, 'running')
          from unit_intervals i join vms v on v.id = i.vm_id
          where i.starts_at <> v.started_at or (not i.open and i.ends_at is distinct from v.terminated_at) or (i.open and i.ends_at is not null)
        union all
        select 'needs-review-without-cause', i.node_id, i.reservation_id, i.unit_id, 'reservation at gen ' || r.topology_gen || ', node at ' || n.topology_gen
          from unit_intervals i join reservations r on r.node_id = i.node_id and r.id = i.reservation_id join nodes n on n.id = i.node_id
          where i.open and i.kind = 'needs-review' and r.topology_gen >= n.topology_gen
        union all
        select 'open-interval-not-latest', i.node_id, i.reservation_id, i.unit_id, i.kind || ' open since ' || ${iso('i.starts_at')} || ', a row written after it since ' || ${iso('l.starts_at')}
          from unit_intervals i join lateral (
            select j.starts_at from unit_intervals j
            where j.node_id = i.node_id and j.reservation_id = i.reservation_id and j.kind = i.kind and j.unit_id = i.unit_id and j.id > i.id
            limit 1) l on true
          where i.open and i.kind <> 'vm'
        order by 1, 2, 3, 4`,
  );
  return found.map((r) => ({
    invariant: 'intervals-agree',
    kind: r.kind,
    message: `On ${r.node_id}, ${r.subject} on ${r.unit_id}: ${r.kind} (${r.info}).`,
    details: { nodeId: r.node_id, subject: r.subject, unitId: r.unit_id, info: r.info },
  }));
};

/** Every check, by invariant. */
export const invariantChecks: Record<InvariantName, InvariantCheck> = {
  'single-running-vm': singleRunningVm,
  'vm-units-agree': vmUnitsAgree,
  'no-spot-on-unreleased-unit': noSpotOnUnreleasedUnit,
  'no-reserved-vm-on-released-unit': noReservedVmOnReleasedUnit,
  'no-placement-on-withheld-unit': noPlacementOnWithheldUnit,
  'no-overlapping-reservations': noOverlappingReservations,
  'audit-complete': auditComplete,
  'reclaims-notified': reclaimsNotified,
  'times-follow-commit-order': timesFollowCommitOrder,
  'intervals-agree': intervalsAgree,
};

/**
 * Runs every check on `db` as it stands — a pool, or an open transaction that may hold
 * uncommitted changes (the planted-fault tests plant and check in one transaction, then roll
 * it back).
 * @returns every violation, grouped by invariant in `invariantNames` order; empty when clean.
 */
export async function runChecks(db: DbOrTx, options: CheckOptions = {}): Promise<Violation[]> {
  const [clock] = await db.execute<{ now: string }>(sql`select ${iso('now()')} as now`);
  const scope: CheckScope = { now: options.now?.toISOString() ?? clock!.now, auditSince: options.auditSince?.toISOString() ?? null };
  const out: Violation[] = [];
  for (const name of invariantNames) out.push(...(await invariantChecks[name](db, scope)));
  return out;
}

/**
 * Checks every invariant over one consistent snapshot (a read-only REPEATABLE READ
 * transaction), so a check run while writers are busy judges one instant.
 * @returns every violation, grouped by invariant in `invariantNames` order; empty when clean.
 */
export async function checkInvariants(db: Db, options: CheckOptions = {}): Promise<Violation[]> {
  return db.transaction((tx) => runChecks(tx, options), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
