import { nodeTopologies } from '@/db/schema';
import { asc, eq } from 'drizzle-orm';
import { listAuditEvents } from '../audit/list';
import type { AuditEventView } from '../audit/view';
import type { Ctx } from '../context';
import type { Named } from '../orgs/internal';
import { readNode } from '../nodes/internal';
import { findVisibleReservation } from './internal';
import type { GetReservationInput } from './schemas';
import type { ReservationStatus } from './status';
import { reservationStatus, type ReservationRow } from './view';

/** The reservation's own audit events the history reads at most (its latest). */
export const HISTORY_EVENT_LIMIT = 500;

/** What happened: one of the reservation's audited changes, or a moment its status changed by itself. */
export type HistoryKind = 'created' | 'updated' | 'released' | 'reclaimed' | 'cancelled' | 'reaffirmed' | 'started' | 'expired' | 'needs-review';

/** One line of a reservation's status history, oldest first. */
export type HistoryEntry = {
  at: string;
  kind: HistoryKind;
  /** The reservation's status from this moment on (docs/product.md §4). */
  status: ReservationStatus;
  /**
   * The audited change behind the line, when the caller may see it (§2), with its actor's name
   * where its id shows (§9.1 q); period boundaries and topology changes have none.
   */
  event?: Named<AuditEventView>;
  /** `needs-review`: the node's topology generation that outdated the reservation. */
  topologyGen?: number;
};

export type ReservationHistory = { entries: HistoryEntry[]; truncated: boolean };

const kindOfAction: Partial<Record<AuditEventView['action'], HistoryKind>> = {
  'reservation.create': 'created',
  'reservation.update': 'updated',
  'reservation.release': 'released',
  'reservation.reclaim': 'reclaimed',
  'reservation.cancel': 'cancelled',
  'reservation.reaffirm': 'reaffirmed',
};

type Moment = { t: number; kind: HistoryKind; event?: Named<AuditEventView>; topologyGen?: number; always: boolean };

/**
 * Derives the status history (docs/product.md §9 k) from the reservation's row, the audit events
 * of it the caller may see (oldest first), the node's topology generations and `now`, with docs/product.md §4's
 * precedence at every moment (`reservationStatus`, the one statement of it). Audited changes
 * are always listed; the period's start and end and the node's topology changes only when they
 * change the status (a start while needs-review changes nothing). Creation and cancellation
 * come from the row (`createdAt`, `cancelledAt`), so they show even to an org that may not see
 * those events; the reservation's generation over time comes from re-affirm events
 * (`fromGen` → `toGen`), or is the row's own when none shows.
 * Period boundaries use the current `startsAt`/`endsAt` (edits may have moved them).
 */
export function deriveStatusHistory(
  row: ReservationRow,
  events: readonly Named<AuditEventView>[],
  generations: readonly { gen: number; createdAt: Date }[],
  nodeTopologyGen: number,
  now: Date,
): HistoryEntry[] {
  const ms = (iso: string) => new Date(iso).getTime();
  const reaffirms = events.filter((e) => e.action === 'reservation.reaffirm');
  const genOf = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
  const initialGen = reaffirms.length > 0 ? genOf(reaffirms[0]!.details.fromGen, row.topologyGen) : row.topologyGen;
  const reservationGenAt = (t: number) => reaffirms.reduce((g, e) => (ms(e.at) <= t ? genOf(e.details.toGen, g) : g), initialGen);
  const nodeGenAt = (t: number) =>
    t >= now.getTime() ? nodeTopologyGen : generations.reduce((g, x) => (x.createdAt.getTime() <= t ? x.gen : g), generations[0]?.gen ?? nodeTopologyGen);
  const statusAt = (t: number) =>
    reservationStatus(
      {
        cancelledAt: row.cancelledAt && row.cancelledAt.getTime() <= t ? row.cancelledAt : null,
        startsAt: row.startsAt,
        endsAt: row.endsAt,
        topologyGen: reservationGenAt(t),
      },
      nodeGenAt(t),
      new Date(t),
    );

  const created = row.createdAt.getTime();
  const nowMs = now.getTime();
  const within = (t: number) => t > created && t <= nowMs;
  const moments: Moment[] = [{ t: created, kind: 'created', event: events.find((e) => e.action === 'reservation.create'), always: true }];
  for (const e of events) {
    const kind = kindOfAction[e.action];
    if (kind && kind !== 'created') moments.push({ t: ms(e.at), kind, event: e, always: true });
  }
  if (row.cancelledAt && !events.some((e) => e.action === 'reservation.cancel'))
    moments.push({ t: row.cancelledAt.getTime(), kind: 'cancelled', always: true });
  // Boundaries after the audited changes of the same instant: the change is the cause.
  if (within(row.startsAt.getTime())) moments.push({ t: row.startsAt.getTime(), kind: 'started', always: false });
  if (row.endsAt && within(row.endsAt.getTime())) moments.push({ t: row.endsAt.getTime(), kind: 'expired', always: false });
  for (const g of generations)
    if (within(g.createdAt.getTime())) moments.push({ t: g.createdAt.getTime(), kind: 'needs-review', topologyGen: g.gen, always: false });

  const entries: HistoryEntry[] = [];
  let previous: ReservationStatus | null = null;
  // A stable sort keeps events in audit order and boundaries after them within an instant.
  for (const m of moments
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.t - b.m.t || a.i - b.i)
    .map(({ m }) => m)) {
    const status = statusAt(m.t);
    if (m.always || status !== previous) {
      entries.push({
        at: new Date(m.t).toISOString(),
        kind: m.kind,
        status,
        ...(m.event ? { event: m.event } : {}),
        ...(m.topologyGen !== undefined ? { topologyGen: m.topologyGen } : {}),
      });
    }
    previous = status;
  }
  return entries;
}

/**
 * A reservation's status history (docs/product.md §4, §6 reservation page, §9 k): created, its
 * audited changes the caller may see in the audit trail (§2: updated, released, reclaimed,
 * cancelled, re-affirmed), and the moments its status changed by itself — the period's start
 * (pending → active) and end (→ expired), and topology changes that left it written against
 * an older generation (→ needs-review). Reads the latest HISTORY_EVENT_LIMIT events of it.
 * @returns `{ entries, truncated }`, oldest first; `truncated` when older events were left out.
 * @throws DomainError not_found for an unknown node, or a reservation the caller may not see.
 */
export async function getReservationHistory({ ctx, input }: { ctx: Ctx; input: GetReservationInput }): Promise<ReservationHistory> {
  const node = await readNode(ctx, input.nodeId);
  const { reservation } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  const [generations, page] = await Promise.all([
    ctx.db
      .select({ gen: nodeTopologies.gen, createdAt: nodeTopologies.createdAt })
      .from(nodeTopologies)
      .where(eq(nodeTopologies.nodeId, node.id))
      .orderBy(asc(nodeTopologies.gen)),
    // The audit trail's own visibility (§2): the history shows no event the trail would not.
    listAuditEvents({ ctx, input: { nodeId: node.id, reservationId: reservation.id, limit: HISTORY_EVENT_LIMIT } }),
  ]);
  const events = [...page.items].reverse();
  return { entries: deriveStatusHistory(reservation, events, generations, node.topologyGen, ctx.now), truncated: page.nextCursor !== undefined };
}
