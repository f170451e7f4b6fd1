/**
 * The standing waiter of the webhook dispatcher (docs/product.md §5.7 "Webhooks": delivered
 * within a second): a NOTIFY that comes while the loop is busy between waits is kept, so the next
 * wait ends at once instead of sleeping until the next poll.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { eventsWaiter, stopEventsListeners } from './listen';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await stopEventsListeners();
  await t.close();
});

const notify = (payload: string) => t.db.execute(sql`select pg_notify('events', ${payload})`);

describe('eventsWaiter', () => {
  it('keeps a wake that came while nobody waited, for its org only, and only once', async () => {
    const waiter = eventsWaiter((orgId) => orgId === 'org_a');
    try {
      // Starts listening: its connect wakes every waiter once (what committed before it is read by
      // all, see listen.ts), then nothing more came.
      await waiter.wait(0);
      expect(await waiter.wait(0)).toBe(false);
      // Both arrive while the owner is busy (not waiting); in order, so once org_a's wake is
      // seen, org_b's was handled before it.
      await notify('org_b');
      await notify('org_c,org_a');
      expect(await waiter.wait(10_000)).toBe(true);
      // The kept wake is spent, and org_b's never counted.
      expect(await waiter.wait(0)).toBe(false);
    } finally {
      waiter.close();
    }
  });

  it('a wake during a wait ends it; close ends a wait as not woken', async () => {
    const waiter = eventsWaiter((orgId) => orgId === 'org_a');
    await waiter.wait(0);
    const woken = waiter.wait(10_000);
    await notify('org_a');
    expect(await woken).toBe(true);
    const closed = waiter.wait(10_000);
    waiter.close();
    expect(await closed).toBe(false);
  });
});
