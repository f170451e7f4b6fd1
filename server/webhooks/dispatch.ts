import { directDatabaseUrl, getDb, type Db } from '@/db/client';
import { notifications, webhookEndpoints } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readClockOffsetMs, shifted } from '../clock';
import type { Principal } from '../context';
import { toServiceUnavailable } from '../errors';
import { readFeed } from '../events/feed';
import { notifyAfterCommit } from '../events/notify';
import { eventsWaiter } from '../events/listen';
import { writeEvents } from '../events/write';
import { newId } from '../ids';
import { deliverEvent, recordAttempt, signingSecrets } from './internal';
import type { SendOutcome } from './send';
import type { WebhookRow } from './view';

/*
 * Webhook delivery (docs/product.md §5.7): each enabled endpoint follows its org's feed in order
 * from its cursor, one event at a time — so a receiver gets them in the feed's order, and an
 * event that fails is retried (exponential backoff, for 24 h) before any after it. An app
 * instance takes an endpoint by a 30 s lease (a committed row, never a lock held across an HTTP
 * call), delivers, moves the cursor after each 2xx, and gives the lease back; an instance killed
 * mid-delivery leaves a lease that expires, and another instance sends that event again — with
 * the same `webhook-id`, the one kind of duplicate there is. Every instance runs the dispatcher;
 * the lease makes one of them deliver each event in normal operation.
 */

/** How long a lease lasts; renewed with every delivered event (a send takes at most 10 s). */
const LEASE_SECONDS = 30;
/** Endpoints one pass takes at once. */
const ENDPOINTS_PER_PASS = 8;
/** Events one lease delivers before it is given back (others get their turn). */
const EVENTS_PER_LEASE = 100;
/** The run of failures after which an endpoint is disabled. */
export const FAILING_DISABLES_AFTER_MS = 24 * 3_600_000;

/** The wait before attempt `n + 1` after `n` failures: 5 s doubling to an hour, ±20 %. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(5_000 * 2 ** Math.max(0, failures - 1), 3_600_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** This instance, as its leases name it. */
const INSTANCE = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** The endpoint's org as a principal: the feed reads an org's own copies (server/policy.ts `eventsVisibleTo`). */
const orgPrincipal = (orgId: string): Principal => ({ orgId, actor: { kind: 'system', job: 'webhooks' }, via: 'schedule' });

/**
 * Leases up to 8 enabled endpoints with an event to deliver — past their cursor, below the
 * feed's horizon, of their types — whose retry is due (`next_attempt_at`, on PostgreSQL's clock
 * plus the test clock's offset) and whose lease is free. `SKIP LOCKED`: instances never wait on
 * each other.
 */
async function leaseEndpoints(db: Db, offsetMs: number, instance: string): Promise<WebhookRow[]> {
  const due = sql`
    select w.id from ${webhookEndpoints} w
    where w.enabled and (w.lease_until is null or w.lease_until < clock_timestamp())
      and (w.next_attempt_at is null or w.next_attempt_at <= clock_timestamp() + ${offsetMs} * interval '1 millisecond')
      and exists (
        select 1 from events e
        where e.org_id = w.org_id and (e.xid, e.seq) > (w.cursor_xid, w.cursor_seq)
          and e.xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
          and (cardinality(w.types) = 0 or e.type = any(w.types)))
    order by w.next_attempt_at nulls first, w.id
    limit ${ENDPOINTS_PER_PASS}
    for update of w skip locked`;
  return db
    .update(webhookEndpoints)
    .set({ leaseUntil: sql`clock_timestamp() + ${LEASE_SECONDS} * interval '1 second'`, leasedBy: instance })
    .where(sql`${webhookEndpoints.id} in (${due})`)
    .returning();
}

/**
 * A failed attempt: one more failure, the next try after the backoff; 24 h of failures disable
 * the endpoint and tell its org (a `webhook.disabled` notification and event), in one transaction
 * under the endpoint's row lock — only while this instance holds its lease.
 */
async function recordFailure(db: Db, w: WebhookRow, now: Date, outcome: SendOutcome, instance: string): Promise<void> {
  await notifyAfterCommit(db, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, w.id), eq(webhookEndpoints.leasedBy, instance)))
        .for('update');
      if (!row || !row.enabled) return;
      const failingSince = row.failingSince ?? now;
      const failures = row.attempts + 1;
      if (now.getTime() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS) {
        await tx
          .update(webhookEndpoints)
          .set({ enabled: false, disabledAt: now, disabledReason: 'failing', attempts: failures, failingSince, nextAttemptAt: null, updatedAt: now })
          .where(eq(webhookEndpoints.id, row.id));
        const details = {
          webhookId: row.id,
          url: row.url,
          failingSince: failingSince.toISOString(),
          ...(outcome.error ? { lastError: outcome.error.slice(0, 500) } : {}),
        };
        await tx.insert(notifications).values({
          id: newId('ntf'),
          orgId: row.orgId,
          at: now,
          kind: 'webhook.disabled',
          message: `Webhook ${row.id} (${row.url}) was disabled: its deliveries failed for 24 hours, since ${details.failingSince}. Enable it again to resume where it stopped.`,
          details,
        });
        await writeEvents(tx, [{ type: 'webhook.disabled', at: now, data: details, to: { orgId: row.orgId } }]);
        return;
      }
      await tx
        .update(webhookEndpoints)
        .set({ attempts: failures, failingSince, nextAttemptAt: new Date(now.getTime() + backoffMs(failures)) })
        .where(eq(webhookEndpoints.id, row.id));
    }),
  );
}

/**
 * Delivers what a leased endpoint has, in order, until it has nothing more, a send fails, or
 * 100 events went; then gives the lease back.
 * @returns how many events it delivered.
 */
async function deliverLeased(db: Db, w: WebhookRow, offsetMs: number, instance: string): Promise<number> {
  let delivered = 0;
  let cursor = { x: w.cursorXid, s: w.cursorSeq };
  try {
    while (delivered < EVENTS_PER_LEASE) {
      const { settled } = await readFeed(db, orgPrincipal(w.orgId), cursor, w.types, Math.min(20, EVENTS_PER_LEASE - delivered));
      if (settled.length === 0) return delivered;
      const secrets = await signingSecrets(db, w.id, shifted(new Date(), offsetMs));
      for (const e of settled) {
        // The endpoint as it is now: a change of URL or types that committed since the lease
        // counts from the next send on (the next pass leases it with the new ones); disabled,
        // deleted or leased away, this instance stops.
        const [current] = await db
          .select({ url: webhookEndpoints.url, types: webhookEndpoints.types, enabled: webhookEndpoints.enabled, leasedBy: webhookEndpoints.leasedBy })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, w.id));
        const same =
          current && current.enabled && current.leasedBy === instance && current.url === w.url && JSON.stringify(current.types) === JSON.stringify(w.types);
        if (!same) return delivered;
        const event = { id: e.id!, type: e.type!, at: new Date(e.at!), data: e.data! };
        const outcome = await deliverEvent(w.url, secrets, event, new Date());
        const at = shifted(new Date(), offsetMs);
        if (!(await recordAttempt(db, w.id, event, at, outcome))) return delivered;
        if (!outcome.ok) {
          await recordFailure(db, w, at, outcome, instance);
          return delivered;
        }
        cursor = { x: Number(e.xid), s: Number(e.seq) };
        // The cursor moves past it, failures clear, the lease is renewed — only while the lease is ours.
        const moved = await db
          .update(webhookEndpoints)
          .set({
            cursorXid: cursor.x,
            cursorSeq: cursor.s,
            attempts: 0,
            failingSince: null,
            nextAttemptAt: null,
            leaseUntil: sql`clock_timestamp() + ${LEASE_SECONDS} * interval '1 second'`,
          })
          .where(and(eq(webhookEndpoints.id, w.id), eq(webhookEndpoints.leasedBy, instance), eq(webhookEndpoints.enabled, true)))
          .returning({ id: webhookEndpoints.id });
        if (moved.length === 0) return delivered;
        delivered++;
      }
    }
    return delivered;
  } finally {
    await db
      .update(webhookEndpoints)
      .set({ leaseUntil: null, leasedBy: null })
      .where(and(eq(webhookEndpoints.id, w.id), eq(webhookEndpoints.leasedBy, instance)));
  }
}

/**
 * One pass of the dispatcher (docs/product.md §5.7): leases the endpoints with work and delivers
 * to them side by side.
 * @param instance names the leases (tests pass one per simulated instance).
 * @returns how many events it delivered.
 */
export async function dispatchWebhooks(db: Db = getDb(), instance: string = INSTANCE): Promise<number> {
  const offsetMs = await readClockOffsetMs(db);
  const leased = await leaseEndpoints(db, offsetMs, instance);
  const counts = await Promise.all(leased.map((w) => deliverLeased(db, w, offsetMs, instance)));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Starts this instance's dispatcher (instrumentation.ts): a pass whenever events commit (the
 * feed's LISTEN, server/events/listen.ts) and at least every second, for retries that come due.
 * Off with WEBHOOKS_DISPATCH=off.
 * @returns a stop function.
 */
export function startWebhookDispatcher(): { stop: () => Promise<void> } {
  if (process.env.WEBHOOKS_DISPATCH === 'off' || !directDatabaseUrl()) return { stop: async () => {} };
  let stopped = false;
  // Which orgs have an enabled endpoint, read with every pass: a commit of another org's events
  // wakes no pass (the writers' NOTIFYs would otherwise each cost every instance a statement).
  // Only a hint: the pass every second finds what it misses (an endpoint made since).
  let orgs = new Set<string>();
  // Kept between passes: a NOTIFY that comes while a pass runs starts the next one at once.
  const waiter = eventsWaiter((orgId) => orgs.has(orgId));
  // After a wake whose pass found nothing to deliver: the wait before reading again (ms), 0 when
  // not after a wake. The events told of committed, but an older transaction still running keeps
  // them above the feed's horizon (`pg_snapshot_xmin`) for a moment: read again at 10, 20, 40 …
  // 640 ms, as the feed's long poll does, rather than at the next second's pass.
  let settleDelay = 0;
  const loop = (async () => {
    while (!stopped) {
      let delivered = 0;
      try {
        const db = getDb();
        orgs = new Set(
          (await db.selectDistinct({ orgId: webhookEndpoints.orgId }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true))).map((r) => r.orgId),
        );
        if (orgs.size > 0) delivered = await dispatchWebhooks(db);
      } catch (e) {
        if (!toServiceUnavailable(e)) console.error('[webhooks] dispatch failed', e);
      }
      if (stopped) break;
      // More may be waiting (a lease's cap): go again at once.
      if (delivered > 0) {
        settleDelay = 0;
        continue;
      }
      if (settleDelay > 0 && settleDelay <= 640) {
        await waiter.wait(settleDelay);
        settleDelay *= 2;
        continue;
      }
      // Else until events of an org with an endpoint commit, or a second.
      settleDelay = (await waiter.wait(1000)) ? 10 : 0;
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      waiter.close();
      await loop;
    },
  };
}
