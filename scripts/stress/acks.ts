/**
 * Acknowledged writes: what each 2xx answer to a mutation claimed, checked against the database
 * once the storm is over. Later requests may legitimately change the state again (a placed VM
 * is terminated, a released unit reclaimed), so each check asks whether the write *happened* —
 * the row exists, the termination is recorded with that time and reason, the audit event is
 * there, or a later write that undid it is — never whether the state is still as answered.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export type Ack =
  | { kind: 'place'; vmId: string; nodeId: string; orgId: string; tier: string; reservationId?: string; unitIds: string[]; startedAt: string }
  | { kind: 'terminate'; vmId: string; terminationReason: string; terminatedAt: string }
  | { kind: 'reclaim'; nodeId: string; reservationId: string; unitIds: string[]; terminated: string[]; updatedAt: string }
  | { kind: 'release'; nodeId: string; reservationId: string; unitIds: string[]; updatedAt: string }
  | { kind: 'topology'; nodeId: string; topologyGen: number; unitIds: string[] }
  | { kind: 'reaffirm'; nodeId: string; reservationId: string; topologyGen: number; updatedAt: string };

/** A write that was acknowledged but is not in the database, and why. */
export type LostWrite = { ack: Ack; problem: string };

type VmRow = {
  id: string;
  node_id: string;
  org_id: string;
  tier: string;
  reservation_id: string | null;
  status: string;
  termination_reason: string | null;
  started_at: string;
  terminated_at: string | null;
  unit_ids: string[];
};
type EventRow = {
  seq: number;
  action: string;
  node_id: string;
  reservation_id: string | null;
  at: string;
  unit_ids: string[];
  details: Record<string, unknown>;
};

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
const key = (nodeId: string, id: string) => `${nodeId}\u0000${id}`;
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** What the database says, loaded once for all acks. */
async function load(db: Db) {
  const vms = await db.execute<VmRow>(sql`
    select v.id, v.node_id, v.org_id, v.tier, v.reservation_id, v.status, v.termination_reason, ${iso('v.started_at')} as started_at, ${iso('v.terminated_at')} as terminated_at,
      coalesce((select array_agg(vu.unit_id order by vu.unit_id) from vm_units vu where vu.vm_id = v.id), '{}') as unit_ids
    from vms v`);
  const events = await db.execute<EventRow>(sql`
    select seq, action, node_id, reservation_id, ${iso('at')} as at, unit_ids, details from audit_events
    where action in ('reservation.reclaim', 'reservation.release', 'reservation.reaffirm', 'reservation.create', 'reservation.update', 'reservation.cancel')
    order by seq`);
  const released = await db.execute<{ node_id: string; reservation_id: string; unit_id: string }>(
    sql`select node_id, reservation_id, unit_id from reservation_units where released`,
  );
  const topologies = await db.execute<{ node_id: string; gen: number; unit_ids: string[] }>(sql`
    select node_id, gen, array(select u->>'id' from jsonb_array_elements(units) as u) as unit_ids from node_topologies`);
  const reservations = await db.execute<{ node_id: string; id: string; topology_gen: number }>(sql`select node_id, id, topology_gen from reservations`);
  const byReservation = new Map<string, EventRow[]>();
  // int8 arrives as text: compare seqs as numbers.
  for (const e of events) e.seq = Number(e.seq);
  for (const e of events)
    if (e.reservation_id) byReservation.set(key(e.node_id, e.reservation_id), [...(byReservation.get(key(e.node_id, e.reservation_id)) ?? []), e]);
  return {
    vms: new Map([...vms].map((v) => [v.id, v])),
    events: byReservation,
    released: new Set([...released].map((r) => `${key(r.node_id, r.reservation_id)}\u0000${r.unit_id}`)),
    topologies: new Map([...topologies].map((t) => [key(t.node_id, String(t.gen)), t.unit_ids])),
    reservationGens: new Map([...reservations].map((r) => [key(r.node_id, r.id), r.topology_gen])),
  };
}

/**
 * Checks every acknowledged write against the database.
 * @param seededUpdatedAt each reservation's `updatedAt` as the seed left it (`nodeId\0id` →
 *   ISO): an answer carrying it changed nothing, so no event backs it.
 * @returns the writes not found, each with the reason.
 */
export async function verifyAcks(db: Db, acks: readonly Ack[], seededUpdatedAt: ReadonlyMap<string, string>): Promise<LostWrite[]> {
  const s = await load(db);
  const lost: LostWrite[] = [];
  const fail = (ack: Ack, problem: string) => lost.push({ ack, problem });

  /**
   * The reservation's events at the answer's `updatedAt`: a write stamps both with its lock
   * time; an answer that changed nothing carries the time of the write before it. Several
   * writes may share a millisecond, so callers look for a matching one among them.
   */
  const stamped = (nodeId: string, reservationId: string, updatedAt: string) =>
    (s.events.get(key(nodeId, reservationId)) ?? []).filter((e) => e.at === updatedAt);
  const unchangedSinceSeed = (nodeId: string, reservationId: string, updatedAt: string) => seededUpdatedAt.get(key(nodeId, reservationId)) === updatedAt;
  /**
   * An event on the reservation after `after` (the first event at the answer's time, by seq;
   * by time when there is none) naming `unitId` — in `details[field]`, or among its units.
   * Starting from the first event at that time can only credit too much, never too little.
   */
  const laterEvent = (nodeId: string, reservationId: string, action: string, unitId: string, after: { seq?: number; at: string }, field?: string) =>
    (s.events.get(key(nodeId, reservationId)) ?? []).some(
      (e) =>
        e.action === action &&
        (after.seq !== undefined ? e.seq > after.seq : e.at >= after.at) &&
        (field ? ((e.details[field] as string[] | undefined) ?? []).includes(unitId) : e.unit_ids.includes(unitId)),
    );

  for (const ack of acks) {
    switch (ack.kind) {
      case 'place': {
        const vm = s.vms.get(ack.vmId);
        if (!vm) fail(ack, 'no VM row');
        else if (
          vm.node_id !== ack.nodeId ||
          vm.org_id !== ack.orgId ||
          vm.tier !== ack.tier ||
          (vm.reservation_id ?? undefined) !== ack.reservationId ||
          vm.started_at !== ack.startedAt ||
          !sameSet(vm.unit_ids, ack.unitIds)
        )
          fail(ack, `the VM row differs: ${JSON.stringify(vm)}`);
        break;
      }
      case 'terminate': {
        const vm = s.vms.get(ack.vmId);
        if (!vm) fail(ack, 'no VM row');
        else if (vm.status !== 'terminated' || vm.termination_reason !== ack.terminationReason || vm.terminated_at !== ack.terminatedAt)
          fail(ack, `the VM is ${vm.status} (${vm.termination_reason ?? '-'} at ${vm.terminated_at ?? '-'})`);
        break;
      }
      case 'reclaim': {
        for (const id of ack.terminated) {
          const vm = s.vms.get(id);
          if (!vm || vm.status !== 'terminated' || vm.termination_reason !== 'reclaimed' || vm.terminated_at !== ack.updatedAt)
            fail(ack, `terminated VM ${id} is ${vm ? `${vm.status} (${vm.termination_reason ?? '-'} at ${vm.terminated_at ?? '-'})` : 'missing'}`);
        }
        const events = stamped(ack.nodeId, ack.reservationId, ack.updatedAt);
        // One that terminated VMs wrote; one that did not may carry an earlier write's time.
        if (
          ack.terminated.length > 0 &&
          !events.some((e) => e.action === 'reservation.reclaim' && sameSet((e.details.terminated as string[] | undefined) ?? [], ack.terminated))
        )
          fail(ack, 'no reservation.reclaim event at its updatedAt terminated that set');
        if (events.length === 0 && !unchangedSinceSeed(ack.nodeId, ack.reservationId, ack.updatedAt)) fail(ack, 'no event backs its updatedAt');
        // The named units left the market, unless a later release put them back.
        for (const u of ack.unitIds) {
          if (
            s.released.has(`${key(ack.nodeId, ack.reservationId)}\u0000${u}`) &&
            !laterEvent(ack.nodeId, ack.reservationId, 'reservation.release', u, { seq: events[0]?.seq, at: ack.updatedAt }, 'released')
          )
            fail(ack, `${u} is released, and no later release put it back`);
        }
        break;
      }
      case 'release': {
        const events = stamped(ack.nodeId, ack.reservationId, ack.updatedAt);
        if (events.length === 0 && !unchangedSinceSeed(ack.nodeId, ack.reservationId, ack.updatedAt)) fail(ack, 'no event backs its updatedAt');
        // The named units are on the market, unless a later reclaim took them back.
        for (const u of ack.unitIds) {
          if (
            !s.released.has(`${key(ack.nodeId, ack.reservationId)}\u0000${u}`) &&
            !laterEvent(ack.nodeId, ack.reservationId, 'reservation.reclaim', u, { seq: events[0]?.seq, at: ack.updatedAt })
          )
            fail(ack, `${u} is not released, and no later reclaim took it back`);
        }
        break;
      }
      case 'topology': {
        const units = s.topologies.get(key(ack.nodeId, String(ack.topologyGen)));
        if (!units) fail(ack, `node ${ack.nodeId} has no generation ${ack.topologyGen}`);
        else if (!sameSet(units, ack.unitIds)) fail(ack, `generation ${ack.topologyGen} has units ${units.join(', ')}`);
        break;
      }
      case 'reaffirm': {
        const gen = s.reservationGens.get(key(ack.nodeId, ack.reservationId));
        if (gen === undefined || gen < ack.topologyGen) fail(ack, `the reservation is at generation ${gen ?? 'none'}`);
        const events = stamped(ack.nodeId, ack.reservationId, ack.updatedAt);
        if (events.length === 0 && !unchangedSinceSeed(ack.nodeId, ack.reservationId, ack.updatedAt)) fail(ack, 'no event backs its updatedAt');
        // A re-affirm that wrote moved it to the answered generation; one that did not (already
        // current) carries the time of the write that got it there.
        const reaffirms = events.filter((e) => e.action === 'reservation.reaffirm');
        if (reaffirms.length > 0 && !reaffirms.some((e) => e.details.toGen === ack.topologyGen))
          fail(ack, `its event moved it to ${reaffirms.map((e) => String(e.details.toGen)).join(' / ')}`);
        break;
      }
    }
  }
  return lost;
}
