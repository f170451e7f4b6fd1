import type { DbOrTx, Tx } from '@/db/client';
import type { ApiKeyScope, MembershipRole } from '@/db/schema';
import { shifted } from './clock';
import { notifyAfterCommit } from './events/notify';
import type { RequestReads } from './request-reads';

/**
 * Who acts (docs/product.md §2): a console user, an API key, or the platform itself — a
 * `system` actor names the job that runs (`seed`, `bench`, `schedule`, …), since no person or
 * key is behind it. It acts as the platform org (see `systemCtx`).
 */
export type Actor = { kind: 'user'; userId: string } | { kind: 'apiKey'; apiKeyId: string } | { kind: 'system'; job: string };

/** An actor as the three columns a row records it in (exactly one set; none for no actor). */
export type ActorColumns = { userId: string | null; apiKeyId: string | null; job: string | null };

/** The columns that record `actor` (audit events, API keys' and schedules' creators). */
export function actorColumns(actor: Actor | undefined): ActorColumns {
  return {
    userId: actor?.kind === 'user' ? actor.userId : null,
    apiKeyId: actor?.kind === 'apiKey' ? actor.apiKeyId : null,
    job: actor?.kind === 'system' ? actor.job : null,
  };
}

/** The actor recorded by `actorColumns`; a row that names none reads as the system job `fallbackJob`. */
export function actorOfColumns(c: ActorColumns, fallbackJob: string): Actor {
  if (c.userId) return { kind: 'user', userId: c.userId };
  if (c.apiKeyId) return { kind: 'apiKey', apiKeyId: c.apiKeyId };
  return { kind: 'system', job: c.job ?? fallbackJob };
}

/**
 * The acting org plus the actor behind it, and how it came (docs/product.md §5 Objects `via`):
 * `console` (a session), `api` (a key), or `schedule` — no request at all: the platform's own
 * jobs, and (§5.6) scheduled work run later with the actor who scheduled it.
 *
 * What it may call within what its org may (docs/product.md §2 Roles and scopes): a console
 * user's `role` in the acting org, read with the session; an API key's `scopes`, read with the
 * key. Both come from the lookup that authenticates the request (no round trip of their own).
 * Neither is set for the platform's own jobs and for scheduled work, which act as the platform
 * or as what was scheduled (a schedule was allowed when it was made); server/policy.ts
 * (`grantsOf`) reads them, nothing else does.
 */
export type Principal = { orgId: string; actor: Actor; via: 'console' | 'api' | 'schedule'; role?: MembershipRole; scopes?: readonly ApiKeyScope[] };

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
  /**
   * The reads a console request shares among its calls (server/request-reads.ts): read verbs
   * take their node from it (`readNode`). Only queries carry it; used only while `db` is the
   * pool it was made on, never inside a transaction.
   */
  reads?: RequestReads;
  /**
   * The test clock's offset (server/clock.ts), already added to `now`: writers add it to the
   * lock time too. 0 or absent except when TEST_CLOCK=1.
   */
  clockOffsetMs?: number;
};

/** The platform org: its principals are platform operators (docs/product.md §2). */
export function platformOrgId(): string {
  return process.env.PLATFORM_ORG_ID ?? 'org_platform';
}

/** The context a verb continues with once it holds the node lock (see `Ctx.clock`). */
export function atLockTime(ctx: Ctx, lockedAt: Date): Ctx {
  return ctx.clock === 'database' ? { ...ctx, now: shifted(lockedAt, ctx.clockOffsetMs ?? 0) } : ctx;
}

/** Whether the principal acts as the platform org (docs/product.md §2), a system actor included. */
export function isOperator(ctx: Principal): boolean {
  return ctx.orgId === platformOrgId();
}

// A job name is recorded in every event it writes: short, and safe to print in a log line.
const JOB_NAME = /^[a-z][a-z0-9._:-]{0,63}$/;

/**
 * The context of work the platform does on its own behalf (docs/product.md §9 j): the seed,
 * benchmark fixtures, scheduled jobs. Its principal is the platform org — nothing else could
 * answer for it, and as an operator it may do what any job needs — with a `system` actor
 * naming `job`, `via: 'schedule'` (no request carried it), and so audit events that read
 * "the platform did this, via schedule" to everyone who may see them (§2 shows the platform's
 * `actorOrgId`); the job name is kept in `audit_events.actor_job` for the record.
 * @param now the one clock (docs/product.md §4); a job runner passes PostgreSQL's `now()`.
 * @param clock `database` for a job running beside other instances, so writers re-read the
 *   clock under the node lock as transports do; `fixed` (default) for fixtures and tests.
 * @throws Error when `job` is not a short lowercase name (a programming error, not input).
 */
export function systemCtx(db: DbOrTx, job: string, now: Date, clock: Ctx['clock'] = 'fixed'): Ctx {
  if (!JOB_NAME.test(job)) throw new Error(`systemCtx: job "${job}" must match ${JOB_NAME}`);
  return { orgId: platformOrgId(), actor: { kind: 'system', job }, via: 'schedule', db, now, clock };
}

/**
 * Work a writer found due once it held its node lock — the node's due scheduled reclaims
 * (docs/product.md §5.6) — to be committed on its own before the writer runs again: so the run
 * stands even when the writer then fails (a placement on a unit past its time is refused, and
 * the reclaim it waited for has still happened). Thrown inside the writer's transaction, which
 * rolls back and releases the lock; `inTransaction` settles and retries.
 */
export class SettleFirst extends Error {
  constructor(readonly settle: (db: DbOrTx) => Promise<void>) {
    super('due work to settle first');
    this.name = 'SettleFirst';
  }
}

/** A writer retries at most this often after settling (each settle leaves nothing due, so one is the norm). */
const SETTLE_RETRIES = 3;

/**
 * Runs `fn` in one transaction on the context's database (a savepoint when the context
 * already holds one, e.g. under an idempotency record). When `fn` finds due work first
 * (`SettleFirst`), that is committed in its own transaction, then `fn` runs again.
 */
export async function inTransaction<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // The events it writes are told of once it commits (docs/product.md §5.7), not from inside it.
  return notifyAfterCommit(ctx.db, async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await ctx.db.transaction(fn);
      } catch (e) {
        if (!(e instanceof SettleFirst) || attempt >= SETTLE_RETRIES) throw e;
        await e.settle(ctx.db);
      }
    }
  });
}
