import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { verifyPassword } from './password';
import { admitSignInAttempt, recordSignInFailure, recordSignInSuccess } from './sign-in-throttle';

export const SignInInput = z.object({ email: z.string().trim().toLowerCase().email().max(254), password: z.string().min(1).max(1024) });
export type SignInInput = z.infer<typeof SignInInput>;

// A hash to compare against when the email is unknown, so both paths take scrypt's time.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export type SignInOutcome =
  | { outcome: 'signed_in'; user: { id: string; email: string; name: string } }
  | { outcome: 'invalid' }
  | { outcome: 'locked_out'; retryAfterMinutes: number };

/**
 * Checks a console sign-in (docs/product.md §9.3): first the throttle — a locked-out
 * account or address is refused without checking the password, so guesses past the limit learn
 * nothing — then the password, then the throttle learns the outcome. An unknown email counts and
 * locks out exactly like a known one, so the answers never tell which emails have accounts.
 * @param input.address the client address (server/auth/client-address.ts); null when unknown.
 * @returns `signed_in` with the user, `invalid`, or `locked_out` with whole minutes to wait (≥ 1).
 */
export async function signInWithPassword({ db, input }: { db: Db; input: SignInInput & { address: string | null } }): Promise<SignInOutcome> {
  const admission = await admitSignInAttempt(db, { email: input.email, address: input.address });
  if (!admission.admitted) return { outcome: 'locked_out', retryAfterMinutes: Math.ceil(admission.retryAfterSeconds / 60) };
  const [user] = await db.select().from(users).where(eq(users.email, input.email));
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) {
    await recordSignInFailure(db, admission.attempt);
    return { outcome: 'invalid' };
  }
  await recordSignInSuccess(db, admission.attempt);
  return { outcome: 'signed_in', user: { id: user.id, email: user.email, name: user.name } };
}
