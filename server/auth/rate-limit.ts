import type { DbOrTx } from '@/db/client';
import { sql } from 'drizzle-orm';
import { DomainError } from '../errors';

/** Requests per principal (API key, or console user) per minute; 0 turns the limit off (docs/product.md §8 R5). */
export function rateLimitPerMinute(): number {
  const raw = process.env.RATE_LIMIT_PER_MINUTE;
  const n = raw === undefined || raw === '' ? 600 : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 600;
}

/** Seconds until the current one-minute window ends, at least 1. */
export function secondsLeftInMinute(now: Date): number {
  return Math.max(1, 60 - now.getUTCSeconds());
}

/** The 429 for a principal that used up its minute. */
export function rateLimited(who: string, retryAfterSeconds: number): DomainError {
  return new DomainError(
    'rate_limited',
    `${who} has used its ${rateLimitPerMinute()} requests for this minute; retry in ${retryAfterSeconds} s.`,
    {},
    { retryAfterSeconds },
  );
}

/**
 * Counts `calls` requests of a console user against the per-minute limit, in PostgreSQL so
 * that every app instance counts against the same window (rate_limit_windows, shared with API
 * keys under their own ids). A tRPC batch counts each call it carries: batching must not be a
 * way around the limit.
 * @returns PostgreSQL's `now()` as the count was taken — the request's clock, read in the same
 *   statement (server/request-reads.ts) — when within the limit; null when the limit is off.
 * @throws DomainError rate_limited with Retry-After.
 */
export async function countConsoleRequests(db: DbOrTx, userId: string, calls: number): Promise<Date | null> {
  const limit = rateLimitPerMinute();
  if (limit === 0) return null;
  // Namespaced so a user id can never share a window with an API key id.
  const subject = `user:${userId}`;
  const rows = await db.execute<{ count: number; now: string | Date }>(sql`
    insert into rate_limit_windows (key_id, window_start, count)
    values (${subject}, date_trunc('minute', now()), ${calls})
    on conflict (key_id, window_start) do update set count = rate_limit_windows.count + excluded.count
    returning count, now() as now`);
  const row = rows[0]!;
  if (row.count === calls) {
    // First request of a new window: forget this user's old windows.
    await db.execute(sql`delete from rate_limit_windows where key_id = ${subject} and window_start < date_trunc('minute', now()) - interval '5 minutes'`);
  }
  const now = new Date(row.now);
  if (row.count > limit) throw rateLimited('This console session', secondsLeftInMinute(now));
  return now;
}

/**
 * Requests per org per minute over all its API keys (`RATE_LIMIT_PER_ORG_PER_MINUTE`, default
 * 1200; 0 turns it off; docs/product.md §5 Rate limit, §9.3): each key's own budget
 * (`rateLimitPerMinute`) does not bound an org that mints more keys. Counted in the statement
 * that authenticates the key (server/api-keys/authenticate.ts).
 */
export function rateLimitPerOrgPerMinute(): number {
  const raw = process.env.RATE_LIMIT_PER_ORG_PER_MINUTE;
  const n = raw === undefined || raw === '' ? 1200 : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 1200;
}
