import type { Tx } from '@/db/client';
import { textArray } from '@/db/prepared';
import { unitIntervals, type UnitIntervalEnd, type UnitIntervalKind } from '@/db/schema';
import { sql, type SQL } from 'drizzle-orm';

/*
 * The record of unit intervals (docs/product.md §5.8): each writer on a node records, in its own
 * transaction and under the node lock, what its change starts and ends, so the time views read
 * history instead of rebuilding it from audit details. An open row's end is the plan (its
 * reservation's `endsAt`, or none); closing cuts it at the writer's clock and marks why. A row
 * cut at or before its start is deleted: an interval that never began never happened (a pending
 * reservation cancelled; a release and a reclaim at one instant under the test clock).
 */

/** Times go to PostgreSQL as text: the driver binds no Date inside a raw template. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const atOrNull = (d: Date | null) => (d ? at(d) : sql`null::timestamptz`);

/**
 * Opens `kind` rows on the units of a reservation: `[startsAt, endsAt)`, the end its plan.
 * Nothing to open writes nothing.
 */
export async function openReservationIntervals(
  tx: Tx,
  r: { nodeId: string; reservationId: string; kind: Exclude<UnitIntervalKind, 'vm'>; unitIds: readonly string[]; startsAt: Date; endsAt: Date | null },
): Promise<void> {
  if (r.unitIds.length === 0 || (r.endsAt && r.endsAt <= r.startsAt)) return;
  await tx
    .insert(unitIntervals)
    .values(r.unitIds.map((unitId) => ({ nodeId: r.nodeId, unitId, kind: r.kind, reservationId: r.reservationId, startsAt: r.startsAt, endsAt: r.endsAt })));
}

/**
 * Opens the `needs-review` rows of reservations a topology change left at an older generation,
 * from `startsAt` to each one's end, on the units each holds (one statement for all of them).
 */
export async function openNeedsReview(tx: Tx, nodeId: string, reservationIds: readonly string[], startsAt: Date): Promise<void> {
  if (reservationIds.length === 0) return;
  await tx.execute(sql`
    insert into ${unitIntervals} (node_id, unit_id, kind, reservation_id, starts_at, ends_at)
    select ru.node_id, ru.unit_id, 'needs-review', ru.reservation_id, ${at(startsAt)}, ru.ends_at
    from reservation_units ru
    where ru.node_id = ${nodeId} and ru.reservation_id = any(${textArray(reservationIds)}) and (ru.ends_at is null or ru.ends_at > ${at(startsAt)})`);
}

/**
 * Opens a VM's rows from `startsAt`, one per unit, each naming the reservation that holds the
 * unit now (null on a free unit): what per-reservation utilisation counts as used.
 */
export async function openVmIntervals(
  tx: Tx,
  vm: { nodeId: string; vmId: string; startsAt: Date; units: readonly { unitId: string; reservationId: string | null }[] },
): Promise<void> {
  if (vm.units.length === 0) return;
  await tx
    .insert(unitIntervals)
    .values(
      vm.units.map((u) => ({ nodeId: vm.nodeId, unitId: u.unitId, kind: 'vm' as const, reservationId: u.reservationId, vmId: vm.vmId, startsAt: vm.startsAt })),
    );
}

/** Which open rows a close or a move acts on: a reservation's (some kinds, some units), or some VMs'. */
export type OpenIntervals = { nodeId: string } & (
  { reservationId: string; kinds?: readonly UnitIntervalKind[]; unitIds?: readonly string[] } | { vmIds: readonly string[] }
);

const reservationKinds = ['reserved', 'released', 'needs-review'] as const satisfies readonly UnitIntervalKind[];

/**
 * SQL selecting the `id` and `starts_at` of the open rows `which` names. A VM's rows by
 * `unit_intervals_vm_idx`. A reservation's: one probe of `unit_intervals_reservation_idx` per
 * kind and unit for the last row written (the highest id), kept if open — no index names `open`
 * (closing stays a HOT update), and a reservation released and reclaimed every few minutes never
 * walks its history. It rests on an invariant of the writers: of a reservation's rows of one kind
 * on one unit, only the last written can be open — a row opens only once the one before it has
 * closed (release opens units not released, a shrink closes what it removes, needs-review opens
 * only on reservations at the node's current generation), and ids grow in the order the node's
 * writers run, one at a time under its lock, whatever the clock said (a clock stepped back still
 * has its row found and closed). Checked after every storm (server/testing/invariants.ts).
 * Without `unitIds`, the units the reservation holds (`reservation_units`).
 */
export function openRowsSql(which: OpenIntervals): SQL | null {
  if ('vmIds' in which) return which.vmIds.length ? vmOpenRowsSql(textArray(which.vmIds)) : null;
  if (which.unitIds && which.unitIds.length === 0) return null;
  return latestOpenRowsSql({
    nodeId: sql`${which.nodeId}`,
    reservationId: sql`${which.reservationId}`,
    kinds: textArray(which.kinds ?? reservationKinds),
    units: which.unitIds
      ? sql`unnest(${textArray(which.unitIds)}) u(unit_id)`
      : sql`(select ru.unit_id from reservation_units ru where ru.node_id = ${which.nodeId} and ru.reservation_id = ${which.reservationId}) u`,
  });
}

/**
 * The probe of `openRowsSql` for a reservation's rows, from SQL pieces: values, or placeholders
 * in a prepared statement (the reclaim's, server/reservations/reclaim-apply.ts).
 * @param p.kinds a `text[]`; @param p.units a from-item naming a `unit_id` column, aliased `u`.
 */
export function latestOpenRowsSql(p: { nodeId: SQL; reservationId: SQL; kinds: SQL; units: SQL }): SQL {
  return sql`select x.id, x.starts_at from unnest(${p.kinds}) k(kind) cross join ${p.units}
    cross join lateral (
      select i.id, i.starts_at, i.open from ${unitIntervals} i
      where i.node_id = ${p.nodeId} and i.reservation_id = ${p.reservationId} and i.kind = k.kind and i.unit_id = u.unit_id
      order by i.id desc limit 1
    ) x where x.open`;
}

/** The open rows of some VMs (`unit_intervals_vm_idx`), from a `text[]`: values or a placeholder. */
export function vmOpenRowsSql(vmIds: SQL): SQL {
  return sql`select id, starts_at from ${unitIntervals} where vm_id = any(${vmIds}) and open`;
}

/**
 * The data-modifying CTEs that close, at `t`, the rows `rows` selects (`id`, `starts_at`): `name`
 * holds them, `name_dropped` deletes those that began at or after `t` (they never happened), and
 * `name_cut` ends the others then unless their plan ended sooner, saying why (`endedBy`) when the
 * cut came first. For a statement of its own (`closeIntervals`) or folded into the reclaim's one
 * write (server/reservations/reclaim-apply.ts, with placeholders).
 */
export function closeRowsSql(name: string, rows: SQL, t: SQL, endedBy: SQL): SQL {
  const open = sql.identifier(name);
  return sql`${open} as materialized (${rows}),
    ${sql.identifier(`${name}_dropped`)} as (delete from ${unitIntervals} where id in (select id from ${open} where starts_at >= ${t})),
    ${sql.identifier(`${name}_cut`)} as (update ${unitIntervals} set
      ended_by = case when ends_at is null or ends_at > ${t} then ${endedBy} else ended_by end,
      ends_at = case when ends_at is null or ends_at > ${t} then ${t} else ends_at end, open = false
      where id in (select id from ${open} where starts_at < ${t}))`;
}

/** Closes open rows at `when` (`closeRowsSql`), in one statement; nothing named, nothing sent. */
export async function closeIntervals(tx: Tx, which: OpenIntervals, when: Date, endedBy: UnitIntervalEnd): Promise<void> {
  const rows = openRowsSql(which);
  if (!rows) return;
  await tx.execute(sql`with ${closeRowsSql('open_rows', rows, at(when), sql`${endedBy}`)} select 1`);
}

/** Moves the planned end of a reservation's open rows (its `endsAt` changed; still in the future). */
export async function moveIntervalEnds(tx: Tx, nodeId: string, reservationId: string, endsAt: Date | null): Promise<void> {
  const rows = openRowsSql({ nodeId, reservationId })!;
  await tx.execute(sql`update ${unitIntervals} set ends_at = ${atOrNull(endsAt)} where id in (select id from (${rows}) o)`);
}
