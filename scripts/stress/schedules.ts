/**
 * `npm run stress -- --schedules 50`: scheduled reclaims on time and exactly once with two app
 * instances (docs/product.md §5.6; docs/performance.md). Registers nodes through the API, releases
 * their units, places spot VMs on half of them, schedules `--schedules` reclaims a few seconds
 * ahead, and when all are due reads back how late each ran (its `reservation.reclaim` event's
 * time, taken under the node lock, minus `at`) and that each ran once: one event per schedule, one
 * termination per VM. Then the fault: a schedule whose run is held (RECLAIM_RUN_HOLD_MS, honoured
 * only with TEST_CLOCK=1) is due, the instance holding it is killed with `kill -9`, and the other
 * must run it — once. Prints the figures; exits 1 when a schedule did not run exactly once, or
 * the p99 lateness exceeds 1 s.
 */
import { sql } from 'drizzle-orm';
import { killInstance, seedFleet, startDatabase, startInstances, stopInstances, type Database, type Instance } from './fleet';
import { rest } from './http';

const PLATFORM = 'org_platform';
const OWNER = 'org_acme';
const MANAGER = 'org_helix';
const TENANTS = ['org_orbit', 'org_quark', 'org_zephyr'];
const UNITS_PER_NODE = 8;
/** The fault's schedule is recognised by its reason: only its run is held. */
const HOLD_REASON = 'kill -9 test';
const HOLD_MS = 4_000;

/** A PostgreSQL array literal of ids (drizzle spreads a JS array into a row of parameters). */
const textArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

export async function runScheduleStress(count: number): Promise<boolean> {
  let database: Database | undefined;
  const instances: Instance[] = [];
  try {
    database = await startDatabase();
    const db = database.db;
    const [{ keys }] = await Promise.all([
      seedFleet(db),
      startInstances(2, database.pg.url, instances, {
        TEST_CLOCK: '1',
        RECLAIM_RUN_HOLD_MS: String(HOLD_MS),
        RECLAIM_RUN_HOLD_REASON: HOLD_REASON,
        DATABASE_DIRECT_URL: database.pg.url,
      }),
    ]);
    const [a, b] = instances as [Instance, Instance];
    const must = async (org: string, method: string, path: string, body: unknown) => {
      const r = await rest(a.base, keys[org]!, method, path, body);
      if (r.status >= 300) throw new Error(`setup: ${method} ${path} as ${org} answered ${r.status} ${r.text}`);
      return r.body as { id: string };
    };

    // One unit per schedule (a unit is in at most one pending schedule of its reservation), plus the fault's.
    const nodeCount = Math.ceil((count + 1) / UNITS_PER_NODE);
    const units = Array.from({ length: UNITS_PER_NODE }, (_, i) => ({ id: `gpu-${i}` }));
    const targets: { nodeId: string; unitId: string; vmId?: string }[] = [];
    for (let n = 0; n < nodeCount; n++) {
      const nodeId = `sched-${n}`;
      await must(PLATFORM, 'POST', '/v1/nodes', { id: nodeId, name: `Schedules ${n}`, ownerOrgId: OWNER, units });
      const unitIds = units.map((u) => u.id);
      await must(OWNER, 'POST', `/v1/nodes/${nodeId}/reservations`, {
        id: 'res',
        reservedUnitIds: unitIds,
        allowedOrgIds: ['org_nimbus'],
        managingOrgIds: [MANAGER],
      });
      await must(MANAGER, 'POST', `/v1/nodes/${nodeId}/reservations/res/release`, { unitIds });
      for (const [i, unitId] of unitIds.entries()) {
        // Half the units run a spot VM, so runs terminate as well as take units back.
        const vm = i % 2 === 0 ? await must(TENANTS[i % TENANTS.length]!, 'POST', '/v1/vms', { nodeId, unitIds: [unitId], tier: 'spot' }) : undefined;
        targets.push({ nodeId, unitId, ...(vm ? { vmId: vm.id } : {}) });
      }
    }
    const [fault, ...rest_] = targets;
    const timed = rest_.slice(0, count);

    // The schedules, 100 ms apart, starting 6 s out (creating them takes a moment).
    const first = Date.now() + 6_000;
    const scheduled: { id: string; at: number }[] = [];
    for (const [i, t] of timed.entries()) {
      const at = first + i * 100;
      const s = await must(MANAGER, 'POST', `/v1/nodes/${t.nodeId}/reservations/res/scheduled-reclaims`, {
        unitIds: [t.unitId],
        at: new Date(at).toISOString(),
      });
      scheduled.push({ id: s.id, at });
    }
    const last = scheduled.at(-1)!.at;
    await sleep(last - Date.now() + 2_000);

    const runs = await db.execute<{ schedule_id: string; at: string; events: number }>(sql`
      select rs.id as schedule_id, to_char(min(e.at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, count(e.id)::int as events
      from reclaim_schedules rs left join audit_events e on e.action = 'reservation.reclaim' and e.details->>'scheduleId' = rs.id
      where rs.id = any(${textArray(scheduled.map((s) => s.id))}::text[]) group by rs.id`);
    const byId = new Map([...runs].map((r) => [r.schedule_id, r]));
    const lateness = scheduled.map((s) => new Date(byId.get(s.id)!.at).getTime() - s.at).sort((x, y) => x - y);
    const notOnce = [...runs].filter((r) => r.events !== 1);
    const [terms] = await db.execute<{ vms: number; notices: number }>(sql`
      select (select count(*)::int from vms where id = any(${textArray(timed.flatMap((t) => (t.vmId ? [t.vmId] : [])))}::text[]) and termination_reason = 'reclaimed') as vms,
             (select count(*)::int from notifications where kind = 'vm.reclaimed' and details->>'vmId' = any(${textArray(timed.flatMap((t) => (t.vmId ? [t.vmId] : [])))}::text[])) as notices`);
    const woken = await db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs`).catch(() => [{ n: -1 }]);

    // The fault: the run of one schedule is held; kill -9 whichever instance holds it.
    const faultAt = Date.now() + 3_000;
    const held = await must(MANAGER, 'POST', `/v1/nodes/${fault!.nodeId}/reservations/res/scheduled-reclaims`, {
      unitIds: [fault!.unitId],
      at: new Date(faultAt).toISOString(),
      reason: HOLD_REASON,
    });
    const holding = await waitFor(10_000, () => instances.find((i) => i.stderr.join('').includes(`holding the run of ${held.id}`)));
    let killed = 'none';
    if (holding) {
      killed = holding === a ? 'first' : 'second';
      await killInstance(holding);
    }
    const done = await waitFor(HOLD_MS * 3 + 5_000, async () => {
      const [row] = await db.execute<{ status: string }>(sql`select status from reclaim_schedules where id = ${held.id}`);
      return row?.status === 'done' ? row : undefined;
    });
    const [faultRuns] = await db.execute<{ events: number; notices: number }>(sql`
      select (select count(*)::int from audit_events where action = 'reservation.reclaim' and details->>'scheduleId' = ${held.id}) as events,
             (select count(*)::int from notifications where kind = 'vm.reclaimed' and details->>'vmId' = ${fault!.vmId ?? ''}) as notices`);

    const p50 = quantile(lateness, 0.5);
    const p99 = quantile(lateness, 0.99);
    console.log(
      `scheduled reclaims: ${scheduled.length} schedules on ${nodeCount} nodes, 2 instances (ports ${a.port}, ${b.port}), sweep every 250 ms + graphile-worker wake-ups`,
    );
    console.log(`  lateness (run − at): p50 ${p50} ms, p99 ${p99} ms, max ${lateness.at(-1)} ms (goal p99 ≤ 1000 ms)`);
    console.log(
      `  exactly once: ${scheduled.length - notOnce.length}/${scheduled.length} schedules with one reclaim event; ${terms!.vms} VMs terminated, ${terms!.notices} vm.reclaimed notices (expected ${timed.filter((t) => t.vmId).length} each); wake jobs left in the queue: ${woken[0]?.n}`,
    );
    console.log(
      `  kill -9 at the run: the ${killed} instance held schedule ${held.id} and was killed; it is ${done ? 'done' : 'NOT done'}, with ${faultRuns!.events} reclaim event(s) and ${faultRuns!.notices} vm.reclaimed notice(s)`,
    );
    const ok =
      notOnce.length === 0 &&
      terms!.vms === timed.filter((t) => t.vmId).length &&
      terms!.notices === terms!.vms &&
      p99 <= 1000 &&
      holding !== undefined &&
      done !== undefined &&
      faultRuns!.events === 1 &&
      faultRuns!.notices === 1;
    console.log(ok ? 'scheduled reclaims: PASS' : 'scheduled reclaims: FAIL');
    return ok;
  } finally {
    await stopInstances(instances);
    await database?.close().catch(() => {});
    await database?.pg.stop().catch(() => {});
  }
}

async function waitFor<T>(ms: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined) return found;
    await sleep(100);
  }
  return undefined;
}
