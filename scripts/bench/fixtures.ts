/**
 * Reclaim fixtures, built in bulk outside the timed window (issue 10: "a fresh fixture per
 * request"): per fixture a node `zz-bench-…` of 8 units owned by Acme, an active reservation
 * `res-bench` of all 8 (audience Nimbus, managed by Helix) with gpu-0…3 released, and a spot VM
 * on each released unit. Reclaiming gpu-0…3 as the owner terminates the 4 spot VMs. The ids sort
 * after the fleet's, so list pages stay as the fleet made them; `dropFixtures` removes every
 * trace after the round, the audit events and notifications the reclaims wrote included.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gpuUnits } from '../../db/factories';

export const FIXTURE_RESERVATION = 'res-bench';
export const RECLAIM_UNITS = ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'];

/** The node id of fixture `j` of a batch. */
export const fixtureNode = (batch: string, j: number) => `zz-bench-${batch}-${String(j).padStart(5, '0')}`;

/**
 * The request of a fixture-driven run (scripts/bench/profile-reclaim.ts, ./ab-reclaim.ts) as the
 * fixtures' owner: the floor route on its node, or the reclaim of gpu-0…3 (a dry run with `dry`).
 */
export function fixtureRequest(key: string, node: string, scenario: 'floor' | 'reclaim' | 'dry') {
  return {
    method: 'POST' as const,
    path: scenario === 'floor' ? `/bench/floor?nodeId=${node}` : `/v1/nodes/${node}/reservations/${FIXTURE_RESERVATION}/reclaim`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(scenario === 'dry' ? { unitIds: RECLAIM_UNITS, dryRun: true } : { unitIds: RECLAIM_UNITS, reason: 'bench' }),
  };
}

/** Writes `count` fixtures named after `batch`, in one transaction. */
export async function buildFixtures(db: Db, batch: string, count: number): Promise<void> {
  const units = JSON.stringify(gpuUnits());
  await db.transaction(async (tx) => {
    await tx.execute(sql`create temp table bench_fix on commit drop as
      select 'zz-bench-' || ${batch} || '-' || lpad(j::text, 5, '0') as id from generate_series(0, ${count - 1}::int) j`);
    await tx.execute(sql`insert into nodes (id, name, owner_org_id, topology_gen, created_at, updated_at)
      select id, id, 'org_acme', 1, now() - interval '1 day', now() - interval '1 day' from bench_fix`);
    await tx.execute(sql`insert into node_units (node_id, unit_id, position, model, memory_gib, nvlink_domain)
      select f.id, 'gpu-' || u, u, 'H100-SXM5', 80, 'nvl-' || (u / 4) from bench_fix f cross join generate_series(0, 7) u`);
    await tx.execute(sql`insert into node_topologies (node_id, gen, units, created_at) select id, 1, ${units}::jsonb, now() - interval '1 day' from bench_fix`);
    await tx.execute(sql`insert into reservations (id, node_id, allowed_org_ids, managing_org_ids, starts_at, topology_gen, created_at, updated_at)
      select ${FIXTURE_RESERVATION}, id, array['org_nimbus'], array['org_helix'], now() - interval '1 hour', 1, now() - interval '1 hour', now() - interval '1 hour' from bench_fix`);
    await tx.execute(sql`insert into reservation_units (reservation_id, node_id, unit_id, starts_at, released)
      select ${FIXTURE_RESERVATION}, f.id, 'gpu-' || u, now() - interval '1 hour', u < 4 from bench_fix f cross join generate_series(0, 7) u`);
    await tx.execute(sql`insert into vms (id, node_id, org_id, tier, status, started_at)
      select f.id || '-spot-' || u, f.id, case when u % 2 = 0 then 'org_orbit' else 'org_quark' end, 'spot', 'running', now() - interval '30 minutes'
      from bench_fix f cross join generate_series(0, 3) u`);
    await tx.execute(sql`insert into vm_units (vm_id, node_id, unit_id, running)
      select f.id || '-spot-' || u, f.id, 'gpu-' || u, true from bench_fix f cross join generate_series(0, 3) u`);
    // Their record of intervals, as the verbs would have written it (docs/product.md §5.8), so a
    // reclaim closes real rows: the reservation on 8 units, 4 released, a spot VM on each.
    await tx.execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, vm_id, starts_at)
      select f.id, 'gpu-' || u, 'reserved', ${FIXTURE_RESERVATION}, null, now() - interval '1 hour' from bench_fix f cross join generate_series(0, 7) u
      union all
      select f.id, 'gpu-' || u, 'released', ${FIXTURE_RESERVATION}, null, now() - interval '1 hour' from bench_fix f cross join generate_series(0, 3) u
      union all
      select f.id, 'gpu-' || u, 'vm', ${FIXTURE_RESERVATION}, f.id || '-spot-' || u, now() - interval '30 minutes' from bench_fix f cross join generate_series(0, 3) u`);
  });
  // Outside the timed window, as after dropFixtures: fresh statistics for the rows just
  // written, so autovacuum (its insert threshold) does not run in the middle of a scenario on
  // the 2 cores the server and the database share. No CHECKPOINT: after one, each reclaim's
  // first write to a page logs the whole page (full_page_writes), which the floor's one-row
  // UPDATE barely pays — the ratio would measure the checkpoint's timing, not the reclaim.
  await db.execute(sql`vacuum analyze nodes, node_units, node_topologies, reservations, reservation_orgs, reservation_units, vms, vm_units, unit_intervals`);
}

/**
 * Removes every fixture and whatever the reclaims wrote about them, so each round measures the
 * same fleet. Audit events are append-only (migration 0008's triggers refuse DELETE): the
 * benchmark's own throwaway database lifts that for its fixtures' events only, inside this
 * transaction (ALTER TABLE is transactional; the triggers are back at commit), between rounds,
 * when no request runs.
 */
export async function dropFixtures(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from notifications where details->>'nodeId' like 'zz-bench-%'`);
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
    await tx.execute(sql`delete from audit_events where node_id like 'zz-bench-%'`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    await tx.execute(sql`delete from idempotency_records where path like '/v1/nodes/zz-bench-%'`);
    await tx.execute(sql`delete from unit_intervals where node_id like 'zz-bench-%'`);
    await tx.execute(sql`delete from vm_units where node_id like 'zz-bench-%'`);
    await tx.execute(sql`delete from vms where node_id like 'zz-bench-%'`);
    await tx.execute(sql`delete from reservation_units where node_id like 'zz-bench-%'`);
    await tx.execute(sql`delete from reservations where node_id like 'zz-bench-%'`);
    await tx.execute(sql`delete from nodes where id like 'zz-bench-%'`);
  });
  await db.execute(
    sql`vacuum analyze nodes, node_units, node_topologies, reservations, reservation_orgs, reservation_units, vms, vm_units, unit_intervals, audit_events, notifications`,
  );
}
