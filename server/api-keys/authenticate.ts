import type { DbOrTx } from '@/db/client';
import { preparedSql } from '@/db/prepared';
import { sql } from 'drizzle-orm';
import { rateLimitPerMinute, secondsLeftInMinute } from '../auth/rate-limit';
import type { Principal } from '../context';
import { hashApiKeySecret } from './internal';

export type ApiKeyAuth = {
  principal: Principal;
  now: Date;
  /** Set when the key has used up its minute: seconds until the window ends. */
  retryAfterSeconds?: number;
};

type Row = { id: string; org_id: string; now: string | Date; used: number | null };
// Data-modifying CTEs run to completion whether or not the final select reads them.
const keyCtes = () => sql`
    k as (select id, org_id from api_keys where secret_hash = ${sql.placeholder('hash')} and revoked_at is null),
    touched as (
      update api_keys set last_used_at = now()
      where id = (select id from k) and revoked_at is null and (last_used_at is null or last_used_at <= now() - interval '1 minute')
      returning id
    )`;
// Every API request runs one of these two: prepared, so each is parsed and planned once per connection.
const authenticateUnlimited = preparedSql<Row>('authenticate_api_key', () => sql`with ${keyCtes()} select k.id, k.org_id, now() as now, null::int as used from k`);
const authenticateCounted = preparedSql<Row>(
  'authenticate_api_key_counted',
  () => sql`
    with ${keyCtes()},
    counted as (
      insert into rate_limit_windows (key_id, window_start, count)
      select id, date_trunc('minute', now()), 1 from k
      on conflict (key_id, window_start) do update set count = rate_limit_windows.count + 1
      returning count
    )
    select k.id, k.org_id, now() as now, (select count from counted) as used from k`,
);

/**
 * Resolves `Authorization: Bearer <secret>` to the key's principal, reads the one clock
 * (PostgreSQL's `now()`, docs/product.md §4), records when the key was last used and counts the
 * request against the key's per-minute limit, all in one round trip.
 *
 * `last_used_at` is written at most once a minute per key (when null or a minute old): the
 * API keys page shows it to the minute, and a key serving hundreds of requests a minute then
 * costs one row write a minute, not one per request. The condition is on the updated row
 * itself, so concurrent requests re-check it against the first one's write and only one of
 * them writes. A revoked key matches no row: it is refused from the revoke's commit on.
 * @returns null when the header is missing or malformed, or the key is unknown or revoked.
 */
export async function authenticateApiKey(db: DbOrTx, authorization: string | null): Promise<ApiKeyAuth | null> {
  // RFC 9110: the auth scheme is case-insensitive.
  const match = /^Bearer +([A-Za-z0-9_-]{1,200})\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const hash = hashApiKeySecret(match[1]);
  const limit = rateLimitPerMinute();
  const rows = await (limit === 0 ? authenticateUnlimited : authenticateCounted)(db, { hash });
  const row = rows[0];
  if (!row) return null;
  const now = new Date(row.now);
  const principal: Principal = { orgId: row.org_id, actor: { kind: 'apiKey', apiKeyId: row.id }, via: 'api' };
  if (row.used === 1) {
    // First request of a new window: forget this key's old windows.
    await db.execute(sql`delete from rate_limit_windows where key_id = ${row.id} and window_start < date_trunc('minute', now()) - interval '5 minutes'`);
  }
  if (row.used !== null && row.used > limit) {
    return { principal, now, retryAfterSeconds: secondsLeftInMinute(now) };
  }
  return { principal, now };
}

