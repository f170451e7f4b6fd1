import { sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { readNode } from '../nodes/internal';
import { findVisibleReservation } from '../reservations/internal';
import { readUtilisation, type UtilisationSummary } from './figures';
import type { GetReservationUtilisationInput } from './schemas';
import type { UtilisationWindow } from './windows';

/** One reservation's utilisation (docs/product.md §5.8 Utilisation). */
export type ReservationUtilisation = UtilisationSummary & { nodeId: string; reservationId: string; window: UtilisationWindow };

/**
 * How a reservation used its units over the window ending `ctx.now` (docs/product.md §5.8
 * Utilisation): GPU-hours held, idle while held, released, released with nobody on them, used by
 * spot VMs and by the audience's reserved-tier VMs, and the VMs a reclaim evicted — totals, and a
 * series of 6-hour (`7d`) or 1-day (`30d`) buckets for the chart, in one statement over the
 * record of unit intervals.
 * @param input.window `7d` (the default) or `30d` (anything else is 400, by the schema).
 * @returns the window `[from, to)`, its totals and its series, oldest bucket first.
 * @throws DomainError not_found for an unknown node, a reservation under another node, or one
 *   the caller may not see — exactly as `GET …/reservations/{id}` (docs/product.md §2).
 */
export async function getReservationUtilisation({ ctx, input }: { ctx: Ctx; input: GetReservationUtilisationInput }): Promise<ReservationUtilisation> {
  // Visibility first: the reservation's own rule, so its intervals show exactly where it does (§5.8).
  const node = await readNode(ctx, input.nodeId);
  const { reservation } = await findVisibleReservation(ctx.db, ctx, node, input.reservationId, 'none');
  const scope = sql`i.node_id = ${node.id} and i.reservation_id = ${reservation.id}`;
  const window = input.window ?? '7d';
  const summary = await readUtilisation(ctx.db, scope, window, ctx.now);
  return { nodeId: node.id, reservationId: reservation.id, window, ...summary };
}
