import type { DbOrTx, Tx } from '@/db/client';
import { textArray } from '@/db/prepared';
import { users } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { notifySignInLockout } from '../notifications/write';
import { systemCtx, type Ctx } from '../context';

/**
 * Failed sign-ins are throttled per account, per client address, per known device and across
 * the site (docs/product.md §9.3), counted in PostgreSQL (`sign_in_throttles`) so that every
 * app instance shares the count. 0 turns a limit off.
 */
export type SignInThrottleSettings = {
  /** `SIGN_IN_MAX_FAILURES_PER_ACCOUNT` (default 10): failures of one email within the window, and of one known device. */
  accountLimit: number;
  /** `SIGN_IN_MAX_FAILURES_PER_ADDRESS` (default 50): failures from one client address, any accounts. */
  addressLimit: number;
  /**
   * `SIGN_IN_MAX_FAILURES_PER_MINUTE` (default 100): failures across the whole site in one
   * minute from browsers no account knows. Spent, it refuses those browsers until the minute is
   * over — never a known device, so it cannot lock everyone out.
   */
  siteLimitPerMinute: number;
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
    siteLimitPerMinute: envCount(env, 'SIGN_IN_MAX_FAILURES_PER_MINUTE', 100, 0),
    windowMinutes: envCount(env, 'SIGN_IN_WINDOW_MINUTES', 15, 1),
    lockoutMinutes: envCount(env, 'SIGN_IN_LOCKOUT_MINUTES', 15, 1),
  };
}

/**
 * What an attempt counts against. `site` is the one row of the site-wide budget: a window of a
 * minute and no lockout (refused only until its minute ends).
 */
export type ThrottleScope = 'account' | 'address' | 'device' | 'site';
type Subject = { scope: ThrottleScope; key: string; value: string; limit: number; windowMinutes: number; lockoutMinutes: number | null };

/**
 * Who an attempt counts against: from a browser the account knows, only that device (its own
 * counter, the account's limits); from any other browser, the email's account, the client
 * address when known, and the site-wide budget.
 */
export type SignInAttempt = { email: string; address: string | null; deviceId: string | null; subjects: Subject[] };

/** Let through to the password check, or refused for `retryAfterSeconds` without one, naming what refused it. */
export type SignInAdmission = { admitted: true; attempt: SignInAttempt } | { admitted: false; retryAfterSeconds: number; refusedBy: ThrottleScope };

type Row = { subject: string; attempts: number; window_started_at: Date | string; locked_until: Date | string | null; now: Date | string };

/** The subjects an attempt counts against, ordered by key (the order their rows are locked in). */
function subjectsOf(input: { email: string; address: string | null; deviceId: string | null }, s: SignInThrottleSettings): Subject[] {
  const own = { windowMinutes: s.windowMinutes, lockoutMinutes: s.lockoutMinutes };
  const all: Subject[] = input.deviceId
    ? [{ scope: 'device', key: `device:${input.deviceId}`, value: input.deviceId, limit: s.accountLimit, ...own }]
    : [
        { scope: 'account', key: `account:${input.email}`, value: input.email, limit: s.accountLimit, ...own },
        ...(input.address ? [{ scope: 'address' as const, key: `address:${input.address}`, value: input.address, limit: s.addressLimit, ...own }] : []),
        { scope: 'site', key: 'site', value: 'site', limit: s.siteLimitPerMinute, windowMinutes: 1, lockoutMinutes: null },
      ];
  return all.filter((x) => x.limit > 0).sort((a, b) => (a.key < b.key ? -1 : 1));
}

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
  return new Map(
    rows.map((r) => [
      r.subject,
      { ...r, window_started_at: new Date(r.window_started_at), locked_until: r.locked_until === null ? null : new Date(r.locked_until), now: new Date(r.now) },
    ]),
  );
}

const minutes = (n: number) => n * 60_000;

/**
 * Counts a sign-in attempt before its password is checked, or refuses it (docs/product.md §9.3). An attempt counts
 * while it is checked, not only once it failed, so a burst of parallel guesses gets no more
 * checks than the limit; a success takes its count back (`recordSignInSuccess`).
 * @param input.address the client address (server/auth/client-address.ts), null when unknown: then it does not count.
 * @param input.deviceId a known device of this very account (./known-devices.ts), or null: then
 *   only the device counts, and neither the account's lockout nor the site budget applies.
 * @returns refused (with seconds to wait, and the scope that refused) when a subject is locked
 *   out or at its limit — the caller must then not check the password at all.
 */
export async function admitSignInAttempt(
  db: DbOrTx,
  input: { email: string; address: string | null; deviceId: string | null },
  settings = signInThrottleSettings(),
): Promise<SignInAdmission> {
  const subjects = subjectsOf(input, settings);
  const attempt: SignInAttempt = { ...input, subjects };
  if (subjects.length === 0) return { admitted: true, attempt };
  return db.transaction(async (tx) => {
    const rows = await lockRows(tx, subjects);
    let retryAt = 0;
    let refusedBy: ThrottleScope = 'site';
    for (const s of subjects) {
      const r = rows.get(s.key)!;
      const now = r.now.getTime();
      let until = 0;
      if (r.locked_until && r.locked_until.getTime() > now) until = r.locked_until.getTime();
      // A lockout that is over starts a fresh count (see the update below), whatever the window.
      else if (!r.locked_until && r.window_started_at.getTime() + minutes(s.windowMinutes) > now && r.attempts >= s.limit)
        until = r.window_started_at.getTime() + minutes(s.windowMinutes);
      // A lockout names itself over the site budget's minute: it is the longer wait, and the one to tell.
      if (until > 0 && (retryAt === 0 || s.scope !== 'site')) refusedBy = s.scope;
      retryAt = Math.max(retryAt, until);
    }
    const now = rows.get(subjects[0]!.key)!.now.getTime();
    if (retryAt > 0) return { admitted: false as const, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)), refusedBy };
    // A fresh count when the subject's window is over or a lockout has ended (a row still
    // naming a lockout here is one that is over: a current one was refused above).
    const windows = sql.join(
      subjects.map((x) => sql`(${x.key}, ${x.windowMinutes}::int)`),
      sql`, `,
    );
    const fresh = sql`(t.window_started_at + make_interval(mins => w.mins) <= now() or t.locked_until is not null)`;
    await tx.execute(sql`
      update sign_in_throttles t set
        attempts = case when ${fresh} then 1 else t.attempts + 1 end,
        window_started_at = case when ${fresh} then now() else t.window_started_at end,
        expires_at = case when ${fresh} then now() else t.window_started_at end + make_interval(mins => w.mins),
        locked_until = null
      from (values ${windows}) as w(subject, mins)
      where t.subject = w.subject`);
    return { admitted: true as const, attempt };
  });
}

/**
 * A failed password check (docs/product.md §9.3): its count stays, and every subject with a
 * lockout that has now reached its limit is locked out for the lockout period. Each lockout of a
 * known account — its email names a user, or it is one of the user's known devices while none of
 * its other devices is locked — writes one `sign_in.lockout` audit event, and one notification to
 * the platform org, in the same transaction; a lockout of an unknown email or of an
 * address writes none, so guesses at bogus emails cannot grow the append-only trail. The actor is
 * the system (`sign-in-throttle`, acting as the platform org): no one authenticated, so no user or
 * org may be named as having acted — the account is the event's subject, in `details`. Being
 * org-level with the platform as actor, the event shows to the operator only (docs/product.md §2,
 * §5 Objects).
 * Also forgets a few rows whose window and lockout are over.
 */
export async function recordSignInFailure(db: DbOrTx, attempt: SignInAttempt): Promise<void> {
  if (attempt.subjects.length === 0) return;
  await db.transaction(async (tx) => {
    const rows = await lockRows(tx, attempt.subjects);
    for (const s of attempt.subjects) {
      const r = rows.get(s.key)!;
      const locked = r.locked_until && r.locked_until.getTime() > r.now.getTime();
      if (s.lockoutMinutes === null || locked || r.attempts < s.limit) continue;
      const [until] = await tx.execute<{ locked_until: Date | string }>(sql`
        update sign_in_throttles set locked_until = now() + make_interval(mins => ${s.lockoutMinutes}),
          expires_at = greatest(expires_at, now() + make_interval(mins => ${s.lockoutMinutes}))
        where subject = ${s.key} returning locked_until`);
      if (s.scope !== 'account' && s.scope !== 'device') continue;
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, attempt.email));
      if (!user) continue;
      // One device lockout per account at a time is recorded: an account holder minting devices
      // and failing on each must not grow the append-only trail at will.
      if (s.scope === 'device') {
        const [other] = await tx.execute(sql`
          select 1 from sign_in_throttles t join known_devices d on t.subject = 'device:' || d.id
          where d.user_id = ${user.id} and t.subject <> ${s.key} and t.locked_until > now() limit 1`);
        if (other) continue;
      }
      const ctx: Ctx = { ...systemCtx(tx, 'sign-in-throttle', r.now), via: 'console' };
      const details = {
        scope: s.scope,
        email: attempt.email,
        userId: user.id,
        ...(s.scope === 'device' ? { deviceId: s.value } : {}),
        failures: r.attempts,
        windowMinutes: s.windowMinutes,
        lockedUntil: new Date(until!.locked_until).toISOString(),
      };
      await writeAuditEvent(tx, ctx, { action: 'sign_in.lockout', unitIds: [], details });
      // The operator's bell, for the same lockout (one per event, known accounts only).
      await notifySignInLockout(tx, r.now, details);
    }
    await tx.execute(sql`
      delete from sign_in_throttles where subject in (
        select subject from sign_in_throttles where expires_at < now() order by expires_at limit 100 for update skip locked)`);
  });
}

/**
 * A successful sign-in (docs/product.md §9.3): the account's (or the known device's) failures are
 * forgotten, and the address and the site budget take back only this attempt's count — other
 * accounts' failures still count.
 */
export async function recordSignInSuccess(db: DbOrTx, attempt: SignInAttempt): Promise<void> {
  const forget = attempt.subjects.filter((s) => s.scope === 'account' || s.scope === 'device').map((s) => s.key);
  const giveBack = attempt.subjects.filter((s) => s.scope === 'address' || s.scope === 'site').map((s) => s.key);
  if (forget.length) await db.execute(sql`delete from sign_in_throttles where subject = any(${textArray(forget)})`);
  if (giveBack.length) await db.execute(sql`update sign_in_throttles set attempts = greatest(attempts - 1, 0) where subject = any(${textArray(giveBack)})`);
}
