import { textArray } from '@/db/prepared';
import { users } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { notFound } from '../errors';
import { assertMaySeeSignInLocks } from '../policy';
import type { UnlockSignInInput } from './schemas';
import type { UnlockedSignInView } from './view';

/**
 * Lifts the sign-in locks of a known account (docs/product.md §9.3 "Unlock"): the account's own
 * and its known devices'. When one is locked, every failure count of the account and its devices
 * is forgotten with it and one org-level `sign_in.unlock` event names the operator, in the same
 * transaction; when none is, nothing changes and nothing is written. The throttle rows are locked
 * (FOR UPDATE, by subject) as the throttle itself locks them, so an unlock and a failing attempt
 * queue rather than interleave.
 * @param input.userId the account's user.
 * @returns the account and the scopes that were locked.
 * @throws DomainError forbidden — for every principal but the operator; not_found — no such user.
 */
export async function unlockSignIn({ ctx, input }: { ctx: Ctx; input: UnlockSignInInput }): Promise<UnlockedSignInView> {
  assertMaySeeSignInLocks(ctx);
  return inTransaction(ctx, async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, input.userId));
    if (!user) throw notFound(`User "${input.userId}"`);
    const rows = await tx.execute<{ subject: string; locked_until: Date | string | null; attempts: number }>(sql`
      select subject, locked_until, attempts from sign_in_throttles
      where subject = ${`account:${user.email}`}
         or subject in (select 'device:' || id from known_devices where user_id = ${user.id})
      order by subject collate "C" for update`);
    const locked = rows.filter((r) => r.locked_until !== null && new Date(r.locked_until).getTime() > ctx.now.getTime());
    if (locked.length === 0) return { userId: user.id, email: user.email, unlocked: [] };
    await tx.execute(sql`delete from sign_in_throttles where subject = any(${textArray(rows.map((r) => r.subject))})`);
    const unlocked = [...new Set(locked.map((r) => (r.subject.startsWith('account:') ? 'account' : 'device') as 'account' | 'device'))].sort();
    await writeAuditEvent(tx, ctx, {
      action: 'sign_in.unlock',
      unitIds: [],
      details: {
        email: user.email,
        userId: user.id,
        unlocked,
        failures: locked.reduce((n, r) => n + r.attempts, 0),
        lockedUntil: new Date(Math.max(...locked.map((r) => new Date(r.locked_until!).getTime()))).toISOString(),
      },
    });
    return { userId: user.id, email: user.email, unlocked };
  });
}
