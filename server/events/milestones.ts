import type { Db, Tx } from '@/db/client';
import { reservationMilestones } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { readClockOffsetMs } from '../clock';
import { notifyAfterCommit } from './notify';
import { writeEvents, recipientsOf, type EventFact } from './write';

/*
 * `reservation.started` and `reservation.expired` (docs/product.md §5.7): emitted exactly once by
 * the job runner when the clock passes `startsAt` / `endsAt`. The verbs keep one row per moment
 * ahead (`reservation_milestones`); the sweep deletes a row in the transaction that writes its
 * event, under the node's lock, so whichever instance gets there first emits it and no other can.
 */

/**
 * Plans a new reservation's moments (create): `started` always — also when it starts now, so
 * every reservation that starts is told of the same way, by the job runner within a sweep —
 * and `expired` when it has an end.
 */
export async function planMilestones(tx: Tx, r: { nodeId: string; id: string; startsAt: Date; endsAt: Date | null }): Promise<void> {
  await tx
    .insert(reservationMilestones)
    .values([
      { nodeId: r.nodeId, reservationId: r.id, kind: 'started', dueAt: r.startsAt },
      ...(r.endsAt ? [{ nodeId: r.nodeId, reservationId: r.id, kind: 'expired' as const, dueAt: r.endsAt }] : []),
    ]);
}

/** Moves a reservation's `expired` moment to its new end (PATCH `endsAt`), or drops it when it is open-ended now. */
export async function moveExpiry(tx: Tx, nodeId: string, reservationId: string, endsAt: Date | null): Promise<void> {
  if (!endsAt) {
    await dropMilestones(tx, nodeId, reservationId, 'expired');
    return;
  }
  await tx
    .insert(reservationMilestones)
    .values({ nodeId, reservationId, kind: 'expired', dueAt: endsAt })
    .onConflictDoUpdate({ target: [reservationMilestones.nodeId, reservationMilestones.reservationId, reservationMilestones.kind], set: { dueAt: endsAt } });
}

/** Drops a reservation's moments ahead (cancel: a cancelled reservation neither starts nor expires). */
export async function dropMilestones(tx: Tx, nodeId: string, reservationId: string, kind?: 'started' | 'expired'): Promise<void> {
  await tx
    .delete(reservationMilestones)
    .where(
      and(
        eq(reservationMilestones.nodeId, nodeId),
        eq(reservationMilestones.reservationId, reservationId),
        kind ? eq(reservationMilestones.kind, kind) : undefined,
      ),
    );
}

/** At most this many nodes per sweep, like the reclaim sweep. */
const NODES_PER_SWEEP = 100;

type DueMilestone = {
  reservation_id: string;
  kind: 'started' | 'expired';
  due_at: string;
  owner_org_id: string;
  allowed_org_ids: string[];
  managing_org_ids: string[];
  unit_ids: string[];
};

/**
 * One sweep (docs/product.md §5.7): for up to 100 nodes with moments due, one node per
 * transaction — picked `FOR NO KEY UPDATE SKIP LOCKED`, so an instance never waits on a node
 * another holds — deletes the due rows and writes their events, addressed to the orgs that stand
 * to the reservation then. Due-ness is PostgreSQL's clock plus the test clock's offset.
 * @returns how many events it emitted.
 */
export async function emitDueMilestones(db: Db): Promise<number> {
  let emitted = 0;
  for (let i = 0; i < NODES_PER_SWEEP; i++) {
    const n = await notifyAfterCommit(db, () =>
      db.transaction(async (tx) => {
        const offsetMs = await readClockOffsetMs(tx);
        const due = sql`clock_timestamp() + ${offsetMs} * interval '1 millisecond'`;
        const [node] = await tx.execute<{ id: string }>(sql`
        select n.id from nodes n
        where n.id in (select m.node_id from reservation_milestones m where m.due_at <= ${due})
        order by n.id limit 1
        for no key update of n skip locked`);
        if (!node) return null;
        const rows = await tx.execute<DueMilestone>(sql`
        with gone as (
          delete from reservation_milestones m where m.node_id = ${node.id} and m.due_at <= ${due}
          returning m.reservation_id, m.kind, m.due_at
        )
        select g.reservation_id, g.kind, g.due_at, n.owner_org_id, r.allowed_org_ids, r.managing_org_ids,
          array(select ru.unit_id from reservation_units ru join node_units nu on nu.node_id = ru.node_id and nu.unit_id = ru.unit_id
                where ru.node_id = r.node_id and ru.reservation_id = r.id order by nu.position) as unit_ids
        from gone g join reservations r on r.node_id = ${node.id} and r.id = g.reservation_id join nodes n on n.id = r.node_id
        where r.cancelled_at is null
        order by g.due_at, g.kind desc`);
        const facts: EventFact[] = rows.map((m) => {
          const at = new Date(m.due_at);
          const moment = m.kind === 'started' ? { startsAt: at.toISOString() } : { endsAt: at.toISOString() };
          return {
            type: m.kind === 'started' ? 'reservation.started' : 'reservation.expired',
            at,
            nodeId: node.id,
            data: { nodeId: node.id, reservationId: m.reservation_id, unitIds: m.unit_ids, ...moment },
            to: recipientsOf({ ownerOrgId: m.owner_org_id }, { allowedOrgIds: m.allowed_org_ids, managingOrgIds: m.managing_org_ids }),
          };
        });
        await writeEvents(tx, facts);
        return facts.length;
      }),
    );
    if (n === null) break;
    emitted += n;
  }
  return emitted;
}

/** Events are kept this long (docs/product.md §5.7); a cursor older than it is 410. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Deletes events past the retention, and webhook delivery attempts as old, a bounded batch at a
 * time (the sweeper calls it once a minute).
 * An hour's margin past the 30 days keeps every event a still-valid cursor can reach: a change's
 * `at` is taken when its transaction starts, before it commits.
 * @returns how many rows it deleted.
 */
export async function purgeOldEvents(db: Db, batch = 10_000): Promise<number> {
  const gone = await db.execute(sql`
    delete from events where ctid = any(array(
      select ctid from events where at < now() - ${EVENT_RETENTION_DAYS} * interval '1 day' - interval '1 hour' limit ${batch}))`);
  // The webhooks' delivery logs are kept as long as the events they tell of.
  await db.execute(sql`
    delete from webhook_attempts where seq in (
      select seq from webhook_attempts where at < now() - ${EVENT_RETENTION_DAYS} * interval '1 day' limit ${batch})`);
  return gone.count;
}
