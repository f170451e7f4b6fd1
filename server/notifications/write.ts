import type { Tx } from '@/db/client';
import { notifications, type ReservationNeedsReviewDetails, type SignInLockoutDetails } from '@/db/schema';
import { platformOrgId } from '../context';
import { newId } from '../ids';

/**
 * Tells the operator which reservations a topology change put in needs-review (docs/product.md
 * §5 Objects "Notification", §5.4): one `reservation.needs_review` notification to the platform
 * org per reservation, in the transaction of the change, so the bell rings exactly when the
 * change commits. The platform's own inbox: the reservation's ids show to the operator anyway.
 */
export async function notifyNeedsReview(tx: Tx, now: Date, changed: ReservationNeedsReviewDetails[]): Promise<void> {
  if (changed.length === 0) return;
  await tx.insert(notifications).values(
    changed.map((details) => ({
      id: newId('ntf'),
      orgId: platformOrgId(),
      at: now,
      kind: 'reservation.needs_review' as const,
      message: `Reservation ${details.reservationId} on node ${details.nodeId} needs review: the node's topology changed (generation ${details.fromGen} → ${details.topologyGen}). It withholds its units until re-affirmed.`,
      details,
    })),
  );
}

/**
 * Tells the operator of a lockout of a known account or one of its devices (§9.3): one
 * `sign_in.lockout` notification to the platform org, written beside the lockout's audit event
 * (so: known accounts only, one per lockout, never for an unknown email).
 */
export async function notifySignInLockout(tx: Tx, now: Date, details: SignInLockoutDetails): Promise<void> {
  const what = details.scope === 'device' ? `a browser of ${details.email}` : details.email;
  await tx.insert(notifications).values({
    id: newId('ntf'),
    orgId: platformOrgId(),
    at: now,
    kind: 'sign_in.lockout',
    message: `Sign-in locked for ${what} after ${details.failures} failed attempts in ${details.windowMinutes} minutes, until ${details.lockedUntil}; unlock it under Locked sign-ins.`,
    details,
  });
}
