import type { DbOrTx } from '@/db/client';
import type { ApiKeyScope } from '@/db/schema';
import { preparedSql } from '@/db/prepared';
import { sql, type SQL } from 'drizzle-orm';
import { rateLimitPerMinute, rateLimitPerOrgPerMinute, secondsLeftInMinute } from '../auth/rate-limit';
import type { Principal } from '../context';
import { DomainError } from '../errors';
import { hashApiKeySecret } from './internal';

/** The per-minute budgets a request counts against (docs/product.md §5 Rate limit). */
export type RateBudget = 'key' | 'org';

export type ApiKeyAuth = {
  principal: Principal;
  now: Date;
  /** Set when a budget of this minute is used up: seconds until the window ends. */
  retryAfterSeconds?: number;
  /** The budgets used up, when `retryAfterSeconds` is set: the key's own, its org's, or both. */
  spent?: RateBudget[];
};

type Row = { id: string; org_id: string; scopes: ApiKeyScope[]; now: string | Date; used: number | null; org_used: number | null };
// Data-modifying CTEs run to completion whether or not the final select reads them.
const keyCtes = () => sql`
    k as (select id, org_id, scopes from api_keys where secret_hash = ${sql.placeholder('hash')} and revoked_at is null),
    touched as (
      update api_keys set last_used_at = now()
      where id = (select id from k) and revoked_at is null and (last_used_at is null or last_used_at <= now() - interval '1 minute')
      returning id
    )`;

/** Counts the request in its one-minute window of `rate_limit_windows` under `subject`. */
const countIn = (name: string, subject: SQL) => sql`,
    ${sql.raw(name)} as (
      insert into rate_limit_windows (key_id, window_start, count)
      select ${subject}, date_trunc('minute', now()), 1 from k
      on conflict (key_id, window_start) do update set count = rate_limit_windows.count + 1
      returning count
    )`;

/** The org's window: namespaced, so that it never shares a row with a key id or a console user (`user:`). */
export const orgWindowSubject = (orgId: string) => `org:${orgId}`;

/**
 * The authentication statement, counting the request against the budgets that are on: one
 * statement (one round trip) whichever they are, each combination its own prepared text.
 */
function authenticateStatement(counts: Record<RateBudget, boolean>) {
  const name = `authenticate_api_key${counts.key ? '_key' : ''}${counts.org ? '_org' : ''}`;
  return preparedSql<Row>(
    name,
    () => sql`
    with ${keyCtes()}${counts.key ? countIn('key_window', sql`id`) : sql``}${counts.org ? countIn('org_window', sql`'org:' || org_id`) : sql``}
    select k.id, k.org_id, k.scopes, now() as now,
      ${counts.key ? sql`(select count from key_window)` : sql`null::int`} as used,
      ${counts.org ? sql`(select count from org_window)` : sql`null::int`} as org_used
    from k`,
  );
}
// Every API request runs one of these: prepared, so each is parsed and planned once per connection.
const statements = {
  none: authenticateStatement({ key: false, org: false }),
  key: authenticateStatement({ key: true, org: false }),
  org: authenticateStatement({ key: false, org: true }),
  both: authenticateStatement({ key: true, org: true }),
};

/**
 * Resolves `Authorization: Bearer <secret>` to the key's principal (its org and scopes), reads the one clock
 * (PostgreSQL's `now()`, docs/product.md §4), records when the key was last used and counts the
 * request against the key's per-minute budget (`RATE_LIMIT_PER_MINUTE`) and its org's, shared by
 * all the org's keys (`RATE_LIMIT_PER_ORG_PER_MINUTE`, docs/product.md §5 Rate limit), all in one
 * round trip. A request refused by one budget still counts against the other.
 *
 * `last_used_at` is written at most once a minute per key (when null or a minute old): the
 * API keys page shows it to the minute, and a key serving hundreds of requests a minute then
 * costs one row write a minute, not one per request. The condition is on the updated row
 * itself, so concurrent requests re-check it against the first one's write and only one of
 * them writes. A revoked key matches no row: it is refused from the revoke's commit on.
 * @returns null when the header is missing or malformed, or the key is unknown or revoked;
 *   with `retryAfterSeconds` and `spent` when a budget of this minute is used up.
 */
export async function authenticateApiKey(db: DbOrTx, authorization: string | null): Promise<ApiKeyAuth | null> {
  // RFC 9110: the auth scheme is case-insensitive.
  const match = /^Bearer +([A-Za-z0-9_-]{1,200})\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const hash = hashApiKeySecret(match[1]);
  const keyLimit = rateLimitPerMinute();
  const orgLimit = rateLimitPerOrgPerMinute();
  const statement = keyLimit > 0 ? (orgLimit > 0 ? statements.both : statements.key) : orgLimit > 0 ? statements.org : statements.none;
  const rows = await statement(db, { hash });
  const row = rows[0];
  if (!row) return null;
  const now = new Date(row.now);
  // The key's scopes (docs/product.md §2) come with it: no round trip of their own.
  const principal: Principal = { orgId: row.org_id, actor: { kind: 'apiKey', apiKeyId: row.id }, via: 'api', scopes: row.scopes };
  // First request of a new window: forget that subject's old windows.
  const fresh = [...(row.used === 1 ? [row.id] : []), ...(row.org_used === 1 ? [orgWindowSubject(row.org_id)] : [])];
  if (fresh.length) {
    await db.execute(
      sql`delete from rate_limit_windows where key_id in (${sql.join(
        fresh.map((s) => sql`${s}`),
        sql`, `,
      )}) and window_start < date_trunc('minute', now()) - interval '5 minutes'`,
    );
  }
  const spent: RateBudget[] = [
    ...(row.used !== null && row.used > keyLimit ? ['key' as const] : []),
    ...(row.org_used !== null && row.org_used > orgLimit ? ['org' as const] : []),
  ];
  if (spent.length) return { principal, now, retryAfterSeconds: secondsLeftInMinute(now), spent };
  return { principal, now };
}

/**
 * The 429 for an API key whose request a budget of this minute refused, saying which
 * (docs/product.md §5 Rate limit): the key's own, or its org's, which all its keys share.
 */
export function apiKeyRateLimited(spent: readonly RateBudget[], retryAfterSeconds: number): DomainError {
  const key = `its own ${rateLimitPerMinute()} requests`;
  const org = `the ${rateLimitPerOrgPerMinute()} requests its org's keys share`;
  const which = spent.includes('key') ? (spent.includes('org') ? `${key} and ${org}` : key) : org;
  return new DomainError('rate_limited', `This API key has used ${which} for this minute; retry in ${retryAfterSeconds} s.`, {}, { retryAfterSeconds });
}
