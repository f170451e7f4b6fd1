import type { Db } from '@/db/client';
import { sql } from 'drizzle-orm';

/**
 * What one console request reads at most once and shares among the calls it carries — a tRPC
 * batch, or one server render of a page with its layout: the clock (docs/product.md §4: one
 * `now` from PostgreSQL) and rows read without a lock (the node a page's four queries all
 * start from). Made per request and dropped with it, so nothing is remembered across requests
 * or app instances; writers never use it: they lock and read inside their transaction.
 */
export type RequestReads = {
  /** The pool these reads run on: a verb holding a transaction has another handle and reads for itself. */
  readonly db: Db;
  /** PostgreSQL's `now()`, read on first use; every later call of the request gets the same instant. */
  readonly now: () => Promise<Date>;
  /**
   * Adopts an instant another statement of this request already read from PostgreSQL (the
   * rate-limit count returns `now()`), so the clock costs no statement of its own. Ignored
   * once the clock has been read.
   */
  readonly adoptNow: (at: Date) => void;
  /** `load()` once per key for the whole request; later calls (concurrent ones too) share its result or its error. */
  readonly once: <T>(key: string, load: () => Promise<T>) => Promise<T>;
};

/** A fresh set of per-request reads on `db` (see RequestReads). */
export function createRequestReads(db: Db): RequestReads {
  let clock: Promise<Date> | undefined;
  const loads = new Map<string, Promise<unknown>>();
  return {
    db,
    now: () => (clock ??= readDatabaseNow(db)),
    adoptNow: (at) => {
      clock ??= Promise.resolve(at);
    },
    once: <T>(key: string, load: () => Promise<T>) => {
      let p = loads.get(key) as Promise<T> | undefined;
      if (!p) {
        p = load();
        loads.set(key, p);
      }
      return p;
    },
  };
}

/** PostgreSQL's clock, so every app instance agrees (docs/product.md §4). */
export async function readDatabaseNow(db: Db): Promise<Date> {
  const [row] = await db.execute<{ now: string }>(sql`select now() as now`);
  return new Date(row!.now);
}
