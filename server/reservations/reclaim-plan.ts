import { preparedStatement } from '@/db/prepared';
import { nodeUnits, nodes, reservationUnits, reservations, vmUnits, vms } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { atLockTime, type Ctx } from '../context';
import { DomainError, notFound } from '../errors';
import { sortByCodePoint } from '../ids';
import { maySeeReservation, relationTo } from '../policy';
import { checkReclaim } from './reclaim-apply';
import { choosePlan, type PlanReason, type PlanVm } from './reclaim-plan-policy';
import type { ReclaimPlanInput } from './schemas';
import { holdsNow, reservationStatus, type ReservationUnitState } from './view';

/** The answer of `POST …/reclaim-plan` (docs/product.md §5.5). */
export type ReclaimPlanView = {
  unitIds: string[];
  wouldTerminate: string[];
  wouldSkip: string[];
  policy: 'fewest-evictions';
  reasons: PlanReason[];
};

type RunningVm = { id: string; tier: string; startedAt: string; unitIds: string[] };

/**
 * What a plan reads, in one statement on one snapshot, like the reclaim's dry run: the node with
 * the clock and its unit order, the reservation with its units, and the running VMs on its
 * released units, each with its start and all its units.
 */
const planRead = preparedStatement((db) => {
  const clock = sql<Date>`clock_timestamp()`.mapWith((v: string | Date) => new Date(v));
  const order = sql<string[]>`array(select nu.unit_id from ${nodeUnits} nu where nu.node_id = ${nodes.id} order by nu.position)`;
  const held = sql<
    ReservationUnitState[] | null
  >`(select json_agg(json_build_object('unitId', ru.unit_id, 'released', ru.released)) from ${reservationUnits} ru where ru.node_id = ${reservations.nodeId} and ru.reservation_id = ${reservations.id})`;
  // `running` is a literal for the partial index `vm_units … WHERE running` (as in ./reclaim.ts).
  const running = sql<RunningVm[] | null>`(select json_agg(json_build_object('id', v.id, 'tier', v.tier, 'startedAt', v.started_at,
      'unitIds', array(select all_units.unit_id from ${vmUnits} all_units where all_units.vm_id = v.id))) from ${vms} v
    where v.status = 'running' and v.id in (select vu.vm_id from ${vmUnits} vu join ${reservationUnits} ru
      on ru.node_id = vu.node_id and ru.unit_id = vu.unit_id and ru.reservation_id = ${reservations.id} and ru.released
      where vu.node_id = ${nodes.id} and vu.running))`;
  return db
    .select({ node: nodes, clock, order, reservation: reservations, held, running })
    .from(nodes)
    .leftJoin(reservations, and(eq(reservations.nodeId, nodes.id), eq(reservations.id, sql.placeholder('reservationId'))))
    .where(eq(nodes.id, sql.placeholder('nodeId')))
    .prepare('reclaim_plan_read');
});

/**
 * The smallest reclaim that gets `count` GPUs back (docs/product.md §5.5, policy
 * `fewest-evictions`, ./reclaim-plan-policy.ts): which released units to reclaim, which spot VMs
 * that terminates and skips, and why — what `POST …/reclaim` with these `unitIds` and
 * `expectedTerminate: wouldTerminate` then does. Same principals as reclaim; one read, no lock,
 * nothing written (like the dry run).
 * @param input.count GPUs wanted (1–1024); input.unitIds the candidates (default: all of the
 *   reservation's units); input.policy `fewest-evictions` (the only one).
 * @returns `{ unitIds (node order), wouldTerminate, wouldSkip (by code point), policy, reasons }`.
 * @throws DomainError not_found (unknown or invisible node or reservation), forbidden (the
 *   audience), reservation_not_reclaimable (cancelled or expired), unit_not_in_reservation (a
 *   candidate outside reservedUnitIds), not_enough_units (fewer released candidates than
 *   `count`; `available` says how many).
 */
export async function planReclaim({ ctx, input }: { ctx: Ctx; input: ReclaimPlanInput }): Promise<ReclaimPlanView> {
  const [row] = await planRead(ctx.db, { nodeId: input.nodeId, reservationId: input.reservationId });
  // 404 before 403, the same answers as the reclaim's.
  if (!row) throw notFound(`Node "${input.nodeId}"`);
  const node = { ...row.node, lockedAt: row.clock };
  const relation = row.reservation && relationTo(ctx, node, row.reservation);
  if (!row.reservation || !relation || !maySeeReservation(relation)) throw notFound(`Reservation "${input.reservationId}" on node "${node.id}"`);
  const now = atLockTime(ctx, row.clock).now;
  const reservation = row.reservation;
  const units = row.held ?? [];
  const positions = new Map(row.order.map((unitId, position) => [unitId, position]));
  const status = reservationStatus(reservation, node.topologyGen, now);
  const candidates = input.unitIds ?? units.map((u) => u.unitId);
  checkReclaim({ reservation, relation, status, units, positions }, { unitIds: candidates });

  // A released unit the node no longer has (a topology change under a needs-review reservation)
  // is no GPU to give back: only units of the node's current topology count.
  const released = new Set(units.filter((u) => u.released && positions.has(u.unitId)).map((u) => u.unitId));
  const reclaimable = [...new Set(candidates)].filter((u) => released.has(u)).sort((a, b) => positions.get(a)! - positions.get(b)!);
  if (reclaimable.length < input.count) {
    throw new DomainError(
      'not_enough_units',
      `Only ${reclaimable.length} of the candidate units ${reclaimable.length === 1 ? 'is' : 'are'} on the market now; a plan for ${input.count} needs as many. Ask for fewer, or name other units.`,
      { available: reclaimable.length },
    );
  }
  // Like the reclaim: a reservation that does not hold its units now terminates nothing; the VMs
  // on them run on another holder's capacity (and say so in the reasons).
  const holds = holdsNow(reservation, now);
  const running = holds ? (row.running ?? []) : [];
  const elsewhere = new Map(holds ? [] : (row.running ?? []).flatMap((v) => v.unitIds.map((u) => [u, v] as const)));
  const onReclaimable = (v: RunningVm) => v.unitIds.filter((u) => reclaimable.includes(u)).sort((a, b) => positions.get(a)! - positions.get(b)!);
  const spot: PlanVm[] = running
    .filter((v) => v.tier === 'spot' && onReclaimable(v).length > 0)
    .map((v) => ({ id: v.id, startedAtMs: Date.parse(v.startedAt), unitCount: v.unitIds.length, reclaimableUnitIds: onReclaimable(v) }));
  const choice = choosePlan({ count: input.count, reclaimable, vms: spot, position: positions, nowMs: now.getTime() });

  // What the reclaim does with these units (docs/product.md §5.1 step 4): spot VMs end, others stay.
  const chosen = new Set(choice.unitIds);
  const affected = running.filter((v) => v.unitIds.some((u) => chosen.has(u)));
  const kept = new Map(affected.filter((v) => v.tier !== 'spot').flatMap((v) => v.unitIds.map((u) => [u, v] as const)));
  const reasons = choice.reasons.map((r): PlanReason => {
    const vm = r.kind === 'unit' ? kept.get(r.id) : undefined;
    if (vm) return { ...r, code: 'kept-vm', text: `runs ${vm.id} (${vm.tier}), which a reclaim does not terminate` };
    const other = r.kind === 'unit' ? elsewhere.get(r.id) : undefined;
    if (other)
      return {
        ...r,
        code: 'not-held',
        text: `runs ${other.id} on another holder's capacity: the reservation does not hold its units now, so a reclaim leaves it running`,
      };
    return r;
  });
  return {
    unitIds: choice.unitIds,
    wouldTerminate: sortByCodePoint(affected.filter((v) => v.tier === 'spot').map((v) => v.id)),
    wouldSkip: sortByCodePoint(affected.filter((v) => v.tier !== 'spot').map((v) => v.id)),
    policy: 'fewest-evictions',
    reasons,
  };
}
