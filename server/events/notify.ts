import type { DbOrTx } from '@/db/client';
import { sql } from 'drizzle-orm';
import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Waking the instances' listeners (server/events/listen.ts) once events have committed
 * (docs/product.md §5.7). Never from inside the writer's transaction: PostgreSQL takes one
 * database-wide lock from a NOTIFY until its transaction commits (so that notifications queue in
 * commit order), which made every writer's commit — its WAL flush included — wait for every other
 * notifying writer's (the reclaim fell to half the floor route's throughput). Instead the writer
 * notes whom its events are for, and whoever commits the transaction sends one NOTIFY after it,
 * on its own: a statement that writes no WAL. A NOTIFY that never comes (the instance died right
 * after the commit) costs a waiter at most the second after which it reads again anyway.
 */

type Pending = { orgs: Set<string> };

const pending = new AsyncLocalStorage<Pending>();

/** Notes the recipient orgs of events being written, to be told once the transaction commits. */
export function noteRecipients(orgIds: Iterable<string>): void {
  const p = pending.getStore();
  if (p) for (const o of orgIds) p.orgs.add(o);
}

/** A NOTIFY payload is at most 8000 bytes: past that, wake everyone. */
const MAX_PAYLOAD = 7900;

/**
 * The NOTIFYs of one instance within this many ms go as one, naming the union of their orgs: under
 * load a NOTIFY per write is a statement per write, and one more message for every instance's
 * listener to read; waiters lose at most this long.
 */
// 25, not 10: at the bench's 300 reclaims a second, 10 ms meant a NOTIFY for every third write
// (issue 26); the live console's bar is a second.
const COALESCE_MS = 25;

const outgoing = new Map<DbOrTx, Set<string>>();

function sendSoon(db: DbOrTx, orgs: Iterable<string>): void {
  let set = outgoing.get(db);
  if (!set) {
    outgoing.set(db, (set = new Set()));
    setTimeout(() => {
      outgoing.delete(db);
      const payload = [...set!].join(',');
      void db.execute(sql`select pg_notify('events', ${payload.length > MAX_PAYLOAD ? '*' : payload})`).catch(() => {});
    }, COALESCE_MS).unref();
  }
  for (const o of orgs) set.add(o);
}

/**
 * Runs `fn`, which commits what it writes before it returns (a transaction of its own), then
 * sends `NOTIFY events` naming the orgs its events were for — within 25 ms, with those of other
 * commits of this instance meanwhile; fire and forget: a failure only delays waiters to their next
 * read. Inside another such scope (a verb under an Idempotency-Key's
 * transaction) it runs in that one, which notifies after its own commit.
 * @param db where to send the NOTIFY: the pool (a transaction would hold it until it commits).
 */
export async function notifyAfterCommit<T>(db: DbOrTx, fn: () => Promise<T>): Promise<T> {
  if (pending.getStore()) return fn();
  const p: Pending = { orgs: new Set() };
  try {
    return await pending.run(p, fn);
  } finally {
    if (p.orgs.size > 0) sendSoon(db, p.orgs);
  }
}
