import type { DbOrTx, Tx } from '@/db/client';

/** Who acts: a console user or an API key (docs/product.md §2). */
export type Actor = { kind: 'user'; userId: string } | { kind: 'apiKey'; apiKeyId: string };

/** The acting org plus the user or key behind it, and the transport it came through. */
export type Principal = { orgId: string; actor: Actor; via: 'console' | 'api' };

/**
 * What every verb receives: the principal, the database (a pool or an open transaction,
 * which the verb then nests into as a savepoint) and the one clock (docs/product.md §4): transports set
 * `now` from PostgreSQL's `now()` so every app instance agrees; tests set it to move time.
 */
export type Ctx = Principal & {
  db: DbOrTx;
  now: Date;
  /**
   * `database`: writers re-read the clock (`clock_timestamp()`) once they hold the node lock,
   * so `updatedAt` and audit times follow commit order across instances. `fixed` (the
   * default): `now` is the clock, as tests need.
   */
  clock?: 'fixed' | 'database';
};

/** The platform org: its principals are platform operators (docs/product.md §2). */
export function platformOrgId(): string {
  return process.env.PLATFORM_ORG_ID ?? 'org_platform';
}

/** The context a verb continues with once it holds the node lock (see `Ctx.clock`). */
export function atLockTime(ctx: Ctx, lockedAt: Date): Ctx {
  return ctx.clock === 'database' ? { ...ctx, now: lockedAt } : ctx;
}

export function isOperator(ctx: Principal): boolean {
  return ctx.orgId === platformOrgId();
}

/**
 * Runs `fn` in one transaction on the context's database (a savepoint when the context
 * already holds one, e.g. under an idempotency record).
 */
export function inTransaction<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.transaction(fn);
}
