import { sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { assertMaySeeSignInLocks } from '../policy';
import type { LockedSignInView } from './view';

/** More than a screenful of locked accounts is an attack to read in the audit trail, not here. */
const MAX_ROWS = 200;

type Row = { user_id: string; email: string; name: string; scope: 'account' | 'device'; attempts: number; locked_until: Date | string };

/**
 * The known accounts whose sign-in is locked now (docs/product.md §9.3 "Unlock"): the account's
 * own lock (browsers it does not know) and each of its known devices' locks, latest lock first,
 * at most 200. Locks of emails that name no user are not listed: there is no one to unlock.
 * @returns `{ items }`
 * @throws DomainError forbidden — for every principal but the operator.
 */
export async function listLockedSignIns({ ctx }: { ctx: Ctx }): Promise<{ items: LockedSignInView[] }> {
  assertMaySeeSignInLocks(ctx);
  const rows = await ctx.db.execute<Row>(sql`
    select * from (
      select u.id as user_id, u.email, u.name, 'account' as scope, t.attempts, t.locked_until
        from sign_in_throttles t join users u on t.subject = 'account:' || u.email
        where t.locked_until > ${ctx.now.toISOString()}::timestamptz
      union all
      select u.id, u.email, u.name, 'device', t.attempts, t.locked_until
        from sign_in_throttles t join known_devices d on t.subject = 'device:' || d.id join users u on u.id = d.user_id
        where t.locked_until > ${ctx.now.toISOString()}::timestamptz
    ) locks
    order by locked_until desc, user_id collate "C", scope
    limit ${MAX_ROWS}`);
  return {
    items: rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      name: r.name,
      scope: r.scope,
      failures: r.attempts,
      lockedUntil: new Date(r.locked_until).toISOString(),
    })),
  };
}
