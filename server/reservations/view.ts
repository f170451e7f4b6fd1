import type { reservations } from '@/db/schema';
import { sortByCodePoint, sortUnitIds } from '../ids';
import type { ReservationStatus } from './status';

export type ReservationRow = typeof reservations.$inferSelect;

/**
 * A reservation's status at `now`, in docs/product.md §4's precedence: cancelled, expired (periods are
 * half-open, so at `endsAt` it has expired), needs-review (written against an older
 * topologyGen than the node's), pending (before `startsAt`), active.
 */
export function reservationStatus(
  r: Pick<ReservationRow, 'cancelledAt' | 'startsAt' | 'endsAt' | 'topologyGen'>,
  nodeTopologyGen: number,
  now: Date,
): ReservationStatus {
  if (r.cancelledAt) return 'cancelled';
  if (r.endsAt && now.getTime() >= r.endsAt.getTime()) return 'expired';
  if (r.topologyGen < nodeTopologyGen) return 'needs-review';
  if (now.getTime() < r.startsAt.getTime()) return 'pending';
  return 'active';
}

/**
 * Whether the reservation holds its units at `now`: not cancelled, and its half-open period
 * `[startsAt, endsAt)` covers `now` — whatever its status says (a needs-review reservation
 * outranks pending, yet holds nothing before its start). Every verb that acts on the VMs
 * running on a reservation's units (reclaim's evictions, PATCH's occupied check) asks this,
 * never the status: before or after its period the VMs there run on someone else's capacity.
 */
export function holdsNow(r: Pick<ReservationRow, 'cancelledAt' | 'startsAt' | 'endsAt'>, now: Date): boolean {
  const t = now.getTime();
  return !r.cancelledAt && r.startsAt.getTime() <= t && (!r.endsAt || t < r.endsAt.getTime());
}

/** The Reservation object of the published contract (docs/product.md §5.1a), minus the
 * reclaim-only fields. Optional strings are omitted when unset, never null (docs/product.md §5). */
export type Reservation = {
  id: string;
  nodeId: string;
  status: ReservationStatus;
  reservedUnitIds: string[];
  releasedUnitIds: string[];
  allowedOrgIds: string[];
  managingOrgIds: string[];
  contractRef?: string;
  startsAt: string;
  endsAt?: string;
  reason?: string;
  topologyGen: number;
  createdAt: string;
  updatedAt: string;
};

export type ReservationUnitState = { unitId: string; released: boolean };

/** Builds the contract's Reservation object from its row and unit rows. */
export function toReservation(
  r: ReservationRow,
  units: readonly ReservationUnitState[],
  positions: ReadonlyMap<string, number>,
  nodeTopologyGen: number,
  now: Date,
): Reservation {
  return {
    id: r.id,
    nodeId: r.nodeId,
    status: reservationStatus(r, nodeTopologyGen, now),
    reservedUnitIds: sortUnitIds(
      units.map((u) => u.unitId),
      positions,
    ),
    releasedUnitIds: sortUnitIds(
      units.filter((u) => u.released).map((u) => u.unitId),
      positions,
    ),
    allowedOrgIds: sortByCodePoint(r.allowedOrgIds),
    managingOrgIds: sortByCodePoint(r.managingOrgIds),
    ...(r.contractRef != null ? { contractRef: r.contractRef } : {}),
    startsAt: r.startsAt.toISOString(),
    ...(r.endsAt ? { endsAt: r.endsAt.toISOString() } : {}),
    ...(r.reason != null ? { reason: r.reason } : {}),
    topologyGen: r.topologyGen,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The contract's Response: the reservation plus `terminated`/`skipped` on a real run, or
 * `wouldTerminate`/`wouldSkip` on a dry run; the other pair is absent. */
export type ReclaimResult = Reservation & { terminated?: string[]; skipped?: string[]; wouldTerminate?: string[]; wouldSkip?: string[] };

/** What the acting org may do with a reservation; the console offers only these (docs/product.md §6). */
