import { directDatabaseUrl, getDb, type Db } from '@/db/client';
import type { Logger as GraphileLogger } from 'graphile-worker';
import { sql } from 'drizzle-orm';
import { readClockOffsetMs, shifted } from '../clock';
import { emitDueMilestones, purgeOldEvents } from '../events/milestones';
import { notifyAfterCommit } from '../events/notify';
import { systemCtx } from '../context';
import { toServiceUnavailable } from '../errors';
import { lockNode } from '../nodes/internal';
import { SCHEDULE_JOB, runDueOnLockedNode } from './settle';

/** At most this many nodes per sweep, so one sweep never holds the loop for long. */
const NODES_PER_SWEEP = 100;

/**
 * One sweep (docs/product.md §5.6): runs the due scheduled reclaims of up to 100 nodes, one
 * node per transaction. A node is picked `FOR NO KEY UPDATE SKIP LOCKED`, so an instance never
 * waits on a node another instance (or a writer) holds: that one runs what is due under its
 * own lock. Due-ness is our SQL against PostgreSQL's clock (with the test clock's offset), never
 * the job runner's `run_at`. Exactly once is the schedule row's `pending` → `done`.
 * @returns how many schedules ran or lapsed.
 */
export async function sweepDueReclaims(db: Db = getDb()): Promise<number> {
  let settled = 0;
  for (let i = 0; i < NODES_PER_SWEEP; i++) {
    const ran = await notifyAfterCommit(db, () =>
      db.transaction(async (tx) => {
        const offsetMs = await readClockOffsetMs(tx);
        const picked = await tx.execute<{ id: string; now: string }>(sql`
        select n.id, clock_timestamp() as now from nodes n
        where n.id in (select rs.node_id from reclaim_schedules rs where rs.status = 'pending' and rs.at <= clock_timestamp() + ${offsetMs} * interval '1 millisecond')
        order by n.id limit 1
        for no key update of n skip locked`);
        const node = picked[0];
        if (!node) return null;
        const job = { ...systemCtx(tx, SCHEDULE_JOB, shifted(new Date(node.now), offsetMs), 'database'), clockOffsetMs: offsetMs };
        // Already held: this read adds the unit order, the lock time and the next `at`.
        const locked = await lockNode(tx, job, node.id, 'write');
        return runDueOnLockedNode(tx, locked.ctx, locked.node);
      }),
    );
    if (ran === null) break;
    settled += ran;
  }
  return settled;
}

/** How often an instance purges events past their retention (docs/product.md §5.7). */
const PURGE_INTERVAL_MS = 60_000;

/** How often each instance sweeps (docs/product.md §5.6: at most every 250 ms). */
export const SWEEP_INTERVAL_MS = 250;

type Runner = { stop: () => Promise<void> };

/**
 * Starts this instance's sweeper (instrumentation.ts): a sweep every 250 ms, and graphile-worker
 * (jobs in PostgreSQL, no extra service) listening on `DATABASE_DIRECT_URL` — LISTEN needs a
 * session a transaction-mode pooler would not keep — whose `reclaim_wake` jobs, one per schedule
 * at its time, wake every instance's runner to sweep at once. Off with RECLAIM_SWEEPER=off (tests
 * that prove a writer runs due reclaims itself).
 * @returns a stop function.
 */
export async function startReclaimSweeper(): Promise<Runner> {
  if (process.env.RECLAIM_SWEEPER === 'off') return { stop: async () => {} };
  let stopped = false;
  let sweeping: Promise<unknown> | null = null;
  let purgedAt = 0;
  const sweep = () => {
    // One sweep at a time per instance; a wake during one is served by the next poll. The same
    // tick tells of reservations' starts and ends, and once a minute purges old events (§5.7).
    sweeping ??= sweepDueReclaims()
      .then(() => emitDueMilestones(getDb()))
      .then(() => {
        if (Date.now() - purgedAt < PURGE_INTERVAL_MS) return;
        purgedAt = Date.now();
        return purgeOldEvents(getDb());
      })
      .catch((e: unknown) => {
        if (!toServiceUnavailable(e)) console.error('[reclaim-sweeper] sweep failed', e);
      })
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };
  const timer = setInterval(() => {
    if (!stopped) void sweep();
  }, SWEEP_INTERVAL_MS);
  timer.unref();

  let worker: Runner | null = null;
  const url = directDatabaseUrl();
  if (url && process.env.RECLAIM_WAKE !== 'off') {
    try {
      const { run, Logger } = await import('graphile-worker');
      const runner = await run({
        connectionString: url,
        concurrency: 1,
        noHandleSignals: true,
        pollInterval: 2000,
        logger: quietLogger(Logger),
        taskList: {
          reclaim_wake: async () => {
            await sweep();
          },
        },
      });
      worker = { stop: () => runner.stop() };
    } catch (e) {
      // The poll above still runs every schedule on time; the wake-up only shortens the wait.
      console.error('[reclaim-sweeper] the job runner did not start; sweeping by poll only', e);
    }
  }
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await worker?.stop();
      await sweeping;
    },
  };
}

/** graphile-worker logs every job at info; only its warnings and errors matter here. */
function quietLogger(Logger: typeof GraphileLogger) {
  return new Logger(() => (level, message) => {
    if (level === 'error') console.error(`[graphile-worker] ${message}`);
    else if (level === 'warning') console.warn(`[graphile-worker] ${message}`);
  });
}
