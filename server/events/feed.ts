import type { DbOrTx } from '@/db/client';
import { textArray } from '@/db/prepared';
import { events } from '@/db/schema';
import { sql } from 'drizzle-orm';
import type { Ctx, Principal } from '../context';
import { DomainError } from '../errors';
import { eventsVisibleTo } from '../policy';
import type { EventType, EventView } from './catalog';
import { waitForEvents } from './listen';
import { EVENT_RETENTION_DAYS } from './milestones';
import type { ListEventsInput } from './schemas';

/** A page of the feed: `nextCursor` always, to ask for what comes after. */
export type EventPage = { items: EventView[]; nextCursor: string };

/**
 * A position in one org's feed: the last event served (`x`: its transaction id, `s`: its seq),
 * and when it was handed out (`t`, ms), which says whether it is older than the retention.
 */
export type Position = { x: number; s: number; t: number };

const START: Omit<Position, 't'> = { x: 0, s: 0 };

export function encodePosition(p: Position): string {
  return Buffer.from(JSON.stringify({ x: p.x, s: p.s, t: p.t }), 'utf8').toString('base64url');
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * @param path where the cursor came from, for the 400's `errors`.
 * @throws DomainError invalid_request for anything this API did not hand out.
 */
export function decodePosition(cursor: string, path = 'query.after'): Position {
  try {
    const p: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (p && typeof p === 'object' && 'x' in p && 's' in p && 't' in p && isCount(p.x) && isCount(p.s) && isCount(p.t)) {
      const position = { x: p.x, s: p.s, t: p.t };
      if (encodePosition(position) === cursor) return position;
    }
  } catch {
    // not base64url JSON: malformed
  }
  throw malformedCursor(path);
}

/** The 400 for a cursor this API did not hand out. */
function malformedCursor(path: string): DomainError {
  return new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous answer unchanged.', {
    errors: [{ path, message: 'is not a cursor this API returned' }],
  });
}

/** The feed's head now: what follows it is what commits from here on (every transaction still open included). */
export async function headPosition(db: DbOrTx): Promise<Omit<Position, 't'>> {
  const [row] = await db.execute<{ xmin: string }>(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`);
  return { x: Number(row!.xmin), s: 0 };
}

type FeedRow = {
  now: string;
  seq: number | null;
  xid: number | null;
  id: string | null;
  type: EventType | null;
  at: string | null;
  data: Record<string, unknown> | null;
  settled: boolean | null;
};

/**
 * One read of the feed: the org's events after `from` in (xid, seq) order, each marked settled
 * when every transaction that began before its own has ended — `xid` below the snapshot's
 * `xmin` — and the database's clock, in one statement that always returns a row.
 */
export async function readFeed(db: DbOrTx, ctx: Principal, from: Omit<Position, 't'>, types: readonly string[] | undefined, limit: number) {
  const rows = await db.execute<FeedRow>(sql`
    with h as (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as xmin, now() as now)
    select h.now, e.seq, e.xid, e.id, e.type, e.at, e.data, e.xid < h.xmin as settled
    from h left join lateral (
      select seq, xid, id, type, at, data from ${events}
      where ${eventsVisibleTo(ctx)} and (xid, seq) > (${from.x}::bigint, ${from.s}::bigint)
        ${types && types.length > 0 ? sql`and type = any(${textArray(types)})` : sql``}
      order by xid, seq limit ${limit}
    ) e on true`);
  const now = new Date(rows[0]!.now);
  const present = rows.filter((r) => r.seq !== null);
  // Unsettled rows sort last (their xid is at or above xmin): the settled ones are a prefix.
  const settled = present.filter((r) => r.settled);
  return { now, settled, pending: settled.length < present.length };
}

/**
 * The acting org's events after a cursor, in commit order (docs/product.md §5.7): only events
 * below the transaction horizon are served, so one that commits late is never skipped; with
 * `wait`, the request is held until an event is there or `wait` seconds pass, holding no pooled
 * connection meanwhile (server/events/listen.ts).
 * @param input.after a cursor from an earlier answer; absent, the oldest event kept.
 * @param input.types only these types. @param input.wait 0–30 s. @param input.limit 1–500 (100).
 * @returns `{ items, nextCursor }`: `nextCursor` always, also on an empty page.
 * @throws DomainError invalid_request (a cursor this API did not hand out), cursor_expired (410:
 *   a cursor older than the 30-day retention).
 */
export async function listEvents({ ctx, input }: { ctx: Ctx; input: ListEventsInput }): Promise<EventPage> {
  const limit = input.limit ?? 100;
  const given = input.after !== undefined ? decodePosition(input.after) : null;
  const from = given ?? START;
  const deadline = Date.now() + (input.wait ?? 0) * 1000;
  // A re-read while a committed event waits for an older transaction to end starts at 50 ms and doubles.
  let backoff = 50;
  for (let first = true; ; first = false) {
    const { now, settled, pending } = await readFeed(ctx.db, ctx, from, input.types, limit);
    // A cursor stamped later than now (beyond a minute of clocks disagreeing) was not handed out:
    // it would never grow old enough for its 410.
    if (first && given && given.t > now.getTime() + 60_000) throw malformedCursor('query.after');
    if (first && given && given.t < now.getTime() - EVENT_RETENTION_DAYS * 86_400_000) {
      throw new DomainError(
        'cursor_expired',
        `This cursor is older than the ${EVENT_RETENTION_DAYS}-day retention of events, so events after it may be gone; start again without after (the oldest event kept).`,
      );
    }
    const remaining = deadline - Date.now();
    if (settled.length > 0 || remaining <= 0) {
      const last = settled[settled.length - 1];
      const position = last ? { x: Number(last.xid), s: Number(last.seq) } : from;
      return {
        items: settled.map((r) => ({ id: r.id!, type: r.type!, at: new Date(r.at!).toISOString(), data: r.data! })),
        nextCursor: encodePosition({ ...position, t: now.getTime() }),
      };
    }
    if (pending) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(backoff, remaining)));
      backoff = Math.min(backoff * 2, 1000);
    } else {
      await waitForEvents(ctx.orgId, Math.min(remaining, 1000));
    }
  }
}
