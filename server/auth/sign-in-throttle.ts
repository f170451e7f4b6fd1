import type { DbOrTx, Tx } from '@/db/client';
import { users } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { systemCtx, type Ctx } from '../context';

/**
 * Failed sign-ins are throttled per account and per client address (docs/product.md §9.3),
 * counted in PostgreSQL (`sign_in_throttles`) so that every app instance shares
 * the count. 0 turns a limit off.
 */
export type SignInThrottleSettings = {
  /** `SIGN_IN_MAX_FAILURES_PER_ACCOUNT` (default 10): failures of one email within the window. */
  accountLimit: number;
  /** `SIGN_IN_MAX_FAILURES_PER_ADDRESS` (default 50): failures from one client address, any accounts. */
  addressLimit: number;
  /** `SIGN_IN_WINDOW_MINUTES` (default 15): how long failures are remembered. */
  windowMinutes: number;
  /** `SIGN_IN_LOCKOUT_MINUTES` (default 15): how long a subject that reached its limit is refused. */
  lockoutMinutes: number;
};

function envCount(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  return Number.isInteger(n) && n >= min && n <= 1_000_000 ? n : fallback;
}

/** The throttle's settings from the environment (names and defaults in SignInThrottleSettings). */
export function signInThrottleSettings(env: Record<string, string | undefined> = process.env): SignInThrottleSettings {
  return {
    accountLimit: envCount(env, 'SIGN_IN_MAX_FAILURES_PER_ACCOUNT', 10, 0),
    addressLimit: envCount(env, 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', 50, 0),
    windowMinutes: envCount(env, 'SIGN_IN_WINDOW_MINUTES', 15, 1),
    lockoutMinutes: envCount(env, 'SIGN_IN_LOCKOUT_MINUTES', 15, 1),
  };
}

type Scope = 'account' | 'address';
type Subject = { scope: Scope; key: string; value: string; limit: number };

/** Who an attempt counts against: the email's account and, when known, the client address. */
export type SignInAttempt = { email: string; address: string | null; subjects: Subject[] };

/** Let through to the password check, or refused for `retryAfterSeconds` without one. */
export type SignInAdmission = { admitted: true; attempt: SignInAttempt } | { admitted: false; retryAfterSeconds: number };

type Row = { subject: string; attempts: number; window_started_at: Date | string; locked_until: Date | string | null; now: Date | string };

/** The subjects an attempt counts against, ordered by key (the order their rows are locked in). */
function subjectsOf(email: string, address: string | null, s: SignInThrottleSettings): Subject[] {
  const all: Subject[] = [{ scope: 'account', key: `account:${email}`, value: email, limit: s.accountLimit }];
  if (address) all.push({ scope: 'address', key: `address:${address}`, value: address, limit: s.addressLimit });
  return all.filter((x) => x.limit > 0).sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** `keys` as one `text[]` parameter list (drizzle expands a bare array into a row). */
const textArray = (keys: string[]) => sql`array[${sql.join(keys.map((k) => sql`${k}`), sql`, `)}]::text[]`;

/** Locks the subjects' rows (creating missing ones) in key order, so concurrent attempts queue. */
async function lockRows(tx: Tx, subjects: Subject[]): Promise<Map<string, Row & { locked_until: Date | null; window_started_at: Date; now: Date }>> {
  const keys = subjects.map((x) => x.key);
  await tx.execute(sql`
    insert into sign_in_throttles (subject, attempts, window_started_at, expires_at)
    select k, 0, now(), now() from unnest(${textArray(keys)}) as k
    on conflict (subject) do nothing`);
  const rows = await tx.execute<Row>(sql`
    select subject, attempts, window_started_at, locked_until, now() as now
    from sign_in_throttles where subject = any(${textArray(keys)}) order by subject collate "C" for update`);
  return new Map(rows.map((r) => [r.subject, { ...r, window_started_at: new Date(r.window_started_at), locked_until: r.locked_until === null ? null : new Date(r.locked_until), now: new Date(r.now) }]));
}

const minutes = (n: number) => n * 60_000;

/**
 * Counts a sign-in attempt before its password is checked, or refuses it (docs/product.md §9.3). An attempt counts
 * while it is checked, not only once it failed, so a burst of parallel guesses gets no more
 * checks than the limit; a success takes its count back (`recordSignInSuccess`).
 * @param address the client address (server/auth/client-address.ts), null when unknown: then only the account counts.
 * @returns refused (with seconds to wait) when a subject is locked out or at its limit — the
 *   caller must then not check the password at all.
 */
export async function admitSignInAttempt(db: DbOrTx, input: { email: string; address: string | null }, settings = signInThrottleSettings()): Promise<SignInAdmission> {
  const subjects = subjectsOf(input.email, input.address, settings);
  const attempt: SignInAttempt = { ...input, subjects };
  if (subjects.length === 0) return { admitted: true, attempt };
  const window = minutes(settings.windowMinutes);
  return db.transaction(async (tx) => {
    const rows = await lockRows(tx, subjects);
    let retryAt = 0;
    for (const s of subjects) {
      const r = rows.get(s.key)!;
      const now = r.now.getTime();
      if (r.locked_until && r.locked_until.getTime() > now) retryAt = Math.max(retryAt, r.locked_until.getTime());
      // A lockout that is over starts a fresh count (see the update below), whatever the window.
      else if (!r.locked_until && r.window_started_at.getTime() + window > now && r.attempts >= s.limit) retryAt = Math.max(retryAt, r.window_started_at.getTime() + window);
    }
    const now = rows.get(subjects[0]!.key)!.now.getTime();
    if (retryAt > 0) return { admitted: false as const, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
    // A fresh count when the window is over or a lockout has ended (a row still naming a
    // lockout here is one that is over: a current one was refused above).
    const fresh = sql`(window_started_at + make_interval(mins => ${settings.windowMinutes}) <= now() or locked_until is not null)`;
    await tx.execute(sql`
      update sign_in_throttles set
        attempts = case when ${fresh} then 1 else attempts + 1 end,
        window_started_at = case when ${fresh} then now() else window_started_at end,
        expires_at = case when ${fresh} then now() else window_started_at end + make_interval(mins => ${settings.windowMinutes}),
        locked_until = null
      where subject = any(${textArray(subjects.map((x) => x.key))})`);
    return { admitted: true as const, attempt };
  });
}

/**
 * A failed password check (docs/product.md §9.3): its count stays, and every subject that has now reached its limit
 * is locked out for the lockout period, with one `sign_in.lockout` audit event each, in the same
 * transaction. The actor is the system (`sign-in-throttle`, acting as the platform org): no one
 * authenticated, so no user or org may be named as having acted — the account is the event's
 * subject, in `details`. Being org-level with the platform as actor, the event shows to the
 * operator only (docs/product.md §2, §5 Objects).
 * Also forgets a few rows whose window and lockout are over.
 */
export async function recordSignInFailure(db: DbOrTx, attempt: SignInAttempt, settings = signInThrottleSettings()): Promise<void> {
  if (attempt.subjects.length === 0) return;
  await db.transaction(async (tx) => {
    const rows = await lockRows(tx, attempt.subjects);
    for (const s of attempt.subjects) {
      const r = rows.get(s.key)!;
      const locked = r.locked_until && r.locked_until.getTime() > r.now.getTime();
      if (locked || r.attempts < s.limit) continue;
      const [until] = await tx.execute<{ locked_until: Date | string }>(sql`
        update sign_in_throttles set locked_until = now() + make_interval(mins => ${settings.lockoutMinutes}),
          expires_at = greatest(expires_at, now() + make_interval(mins => ${settings.lockoutMinutes}))
        where subject = ${s.key} returning locked_until`);
      const [user] = s.scope === 'account' ? await tx.select({ id: users.id }).from(users).where(eq(users.email, s.value)) : [];
      const ctx: Ctx = { ...systemCtx(tx, 'sign-in-throttle', r.now), via: 'console' };
      await writeAuditEvent(tx, ctx, {
        action: 'sign_in.lockout',
        unitIds: [],
        details: {
          scope: s.scope,
          ...(s.scope === 'account' ? { email: s.value, ...(user ? { userId: user.id } : {}) } : { address: s.value }),
          failures: r.attempts,
          windowMinutes: settings.windowMinutes,
          lockedUntil: new Date(until!.locked_until).toISOString(),
        },
      });
    }
    await tx.execute(sql`
      delete from sign_in_throttles where subject in (
        select subject from sign_in_throttles where expires_at < now() order by expires_at limit 100 for update skip locked)`);
  });
}

/**
 * A successful sign-in (docs/product.md §9.3): the account's failures are forgotten, and the address takes back only
 * this attempt's count — other accounts' failures from the same address still count.
 */
export async function recordSignInSuccess(db: DbOrTx, attempt: SignInAttempt): Promise<void> {
  const account = attempt.subjects.find((s) => s.scope === 'account');
  const address = attempt.subjects.find((s) => s.scope === 'address');
  if (account) await db.execute(sql`delete from sign_in_throttles where subject = ${account.key}`);
  if (address) await db.execute(sql`update sign_in_throttles set attempts = greatest(attempts - 1, 0) where subject = ${address.key}`);
}
