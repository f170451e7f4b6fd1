import type { DbOrTx } from '@/db/client';
import { testClock } from '@/db/schema';
import { sql } from 'drizzle-orm';

/**
 * The test clock (docs/product.md §5.6): tests move time with one offset, kept in PostgreSQL so
 * that every app instance and the sweeper move together. It is read only when the process
 * started with TEST_CLOCK=1; any other start never reads it (no statement, no effect), so a
 * production instance cannot be moved by a row someone wrote.
 */
export function testClockEnabled(): boolean {
  return process.env.TEST_CLOCK === '1';
}

/** The offset (ms) to add to PostgreSQL's clock: 0 without a statement unless TEST_CLOCK=1. */
export async function readClockOffsetMs(db: DbOrTx): Promise<number> {
  if (!testClockEnabled()) return 0;
  const [row] = await db.select({ offsetMs: testClock.offsetMs }).from(testClock);
  return row?.offsetMs ?? 0;
}

/** Sets the test clock's offset (tests and the stress script only; the row is ignored unless TEST_CLOCK=1). */
export async function setClockOffsetMs(db: DbOrTx, offsetMs: number): Promise<void> {
  await db
    .insert(testClock)
    .values({ one: true, offsetMs: Math.round(offsetMs) })
    .onConflictDoUpdate({ target: testClock.one, set: { offsetMs: sql`excluded.offset_ms` } });
}

/** `at` moved by the offset. */
export function shifted(at: Date, offsetMs: number): Date {
  return offsetMs === 0 ? at : new Date(at.getTime() + offsetMs);
}
