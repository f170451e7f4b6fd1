import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { findKnownDevice, rememberDevice } from './known-devices';
import { verifyPassword } from './password';
import { currentSignInScope, passwordCheckGate, type PasswordCheckGate, type SignInScope } from './password-checks';
import { admitSignInAttempt, recordSignInFailure, recordSignInSuccess } from './sign-in-throttle';

export const SignInInput = z.object({ email: z.string().trim().toLowerCase().email().max(254), password: z.string().min(1).max(1024) });
export type SignInInput = z.infer<typeof SignInInput>;

// A hash to compare against when the email is unknown, so both paths take scrypt's time.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export type SignInOutcome =
  | { outcome: 'signed_in'; user: { id: string; email: string; name: string }; deviceId: string }
  | { outcome: 'invalid' }
  | { outcome: 'locked_out'; retryAfterMinutes: number }
  | { outcome: 'paused'; retryAfterSeconds: number }
  | { outcome: 'busy'; retryAfterSeconds: number };

/** A refusal before the password check, noted in the request's scope for its transport to answer 429 (server/auth/http.ts). */
function refuse<T extends { outcome: 'busy' | 'paused'; retryAfterSeconds: number }>(scope: SignInScope | undefined, r: T): T {
  if (scope) scope.refusal = { code: r.outcome, retryAfterSeconds: r.retryAfterSeconds };
  return r;
}

/** How long a browser the account knows waits for a password-check slot before it too is told to retry. */
const KNOWN_DEVICE_WAIT_MS = 5_000;

/**
 * Checks a console sign-in (docs/product.md §9.3). In order:
 * 1. the CPU guard (./password-checks.ts): a browser the account does not know gets a slot at
 *    once or `busy` (429) without touching the database; a known device waits for one, ahead of
 *    strangers, so a flood cannot keep it out;
 * 2. the throttle — a locked-out account, device or address (`locked_out`), or a spent site-wide
 *    budget for unknown browsers (`paused`), is refused without checking the password, so guesses
 *    past the limit learn nothing;
 * 3. the password; then the throttle learns the outcome, and a success remembers the browser.
 * An unknown email counts and locks out exactly like a known one (only no audit event is
 * written), so the answers never tell which emails have accounts.
 * @param input.address the client address (server/auth/client-address.ts); null when unknown.
 * @param input.deviceIds the devices the browser's known-device cookie names, HMAC already checked
 *   (./known-devices.ts `parseKnownDeviceCookie`); one of them counts only if it is this account's.
 * @returns `signed_in` with the user and the device to remember in the cookie; `invalid`;
 *   `locked_out` with whole minutes to wait (≥ 1); `paused` or `busy` with seconds to wait.
 */
export async function signInWithPassword({
  db,
  input,
  gate = passwordCheckGate(),
}: {
  db: Db;
  input: SignInInput & { address: string | null; deviceIds: readonly string[] };
  gate?: PasswordCheckGate;
}): Promise<SignInOutcome> {
  const known = await findKnownDevice(db, input.email, input.deviceIds);
  const scope = currentSignInScope();
  // A request whose slot the door leased holds it already (released by its transport when done).
  // Known devices wait one per account, so many devices of one account cannot queue ahead of others.
  const release = scope?.holdsSlot ? () => {} : known ? await gate.enter(input.email, KNOWN_DEVICE_WAIT_MS) : gate.tryEnter();
  if (!release) return refuse(scope, { outcome: 'busy', retryAfterSeconds: 1 });
  try {
    const admission = await admitSignInAttempt(db, { email: input.email, address: input.address, deviceId: known });
    if (!admission.admitted) {
      return admission.refusedBy === 'site'
        ? refuse(scope, { outcome: 'paused', retryAfterSeconds: admission.retryAfterSeconds })
        : { outcome: 'locked_out', retryAfterMinutes: Math.ceil(admission.retryAfterSeconds / 60) };
    }
    const [user] = await db.select().from(users).where(eq(users.email, input.email));
    const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) {
      await recordSignInFailure(db, admission.attempt);
      return { outcome: 'invalid' };
    }
    await recordSignInSuccess(db, admission.attempt);
    const deviceId = await rememberDevice(db, user.id, known);
    return { outcome: 'signed_in', user: { id: user.id, email: user.email, name: user.name }, deviceId };
  } finally {
    release();
  }
}
