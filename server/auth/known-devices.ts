import type { DbOrTx } from '@/db/client';
import { knownDevices, users } from '@/db/schema';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { newId } from '../ids';

/**
 * Known devices (docs/product.md §9.3), their rows: a browser that signed in before keeps a
 * cookie naming them (./known-device-cookie.ts). Presented for the same account, it exempts the
 * browser from the account's lockout and the site-wide budget: a third party who guesses at an
 * account's password locks out only browsers the account does not know.
 */

/**
 * Which of `deviceIds` (already HMAC-checked) is a live known device of the account with `email`.
 * @returns its id, or null (unknown email, revoked, or another user's device).
 */
export async function findKnownDevice(db: DbOrTx, email: string, deviceIds: readonly string[]): Promise<string | null> {
  if (deviceIds.length === 0) return null;
  const [row] = await db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .innerJoin(users, eq(users.id, knownDevices.userId))
    .where(and(eq(users.email, email), inArray(knownDevices.id, [...deviceIds]), isNull(knownDevices.revokedAt)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * After a successful sign-in: the device the browser signed in on — `knownId` touched, or a new
 * row for a browser the account did not know.
 * @returns the device id to put first in the cookie.
 */
export async function rememberDevice(db: DbOrTx, userId: string, knownId: string | null): Promise<string> {
  if (knownId) {
    await db
      .update(knownDevices)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(knownDevices.id, knownId));
    return knownId;
  }
  const id = newId('kd');
  await db.insert(knownDevices).values({ id, userId, createdAt: sql`now()`, lastUsedAt: sql`now()` });
  return id;
}

/**
 * "Sign out everywhere" forgets every browser of the user: from then on each is a stranger to
 * the throttle until it signs in again.
 * @returns how many devices were still known.
 */
export async function revokeUserDevices(db: DbOrTx, userId: string): Promise<number> {
  const ended = await db
    .update(knownDevices)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(knownDevices.userId, userId), isNull(knownDevices.revokedAt)))
    .returning({ id: knownDevices.id });
  return ended.length;
}
