/**
 * How far an org's API keys go (docs/product.md §2 "manage the org's API keys", §9.3): any
 * principal of an org may create its keys — one of its keys included — so the number of active
 * keys and the pace of creating them are bounded per org, and every key's requests also count
 * against the org's own budget (server/api-keys/authenticate.ts).
 */

/** At most this many active (not revoked) keys per org; the next create is 409 `limit_reached`. */
export const MAX_ACTIVE_API_KEYS_PER_ORG = 100;

/**
 * `API_KEY_CREATIONS_PER_ORG_PER_MINUTE` (default 20; 0 turns it off): keys an org may create
 * in any 60 seconds, revoked ones included; the next create is 429 `rate_limited` with
 * `Retry-After`.
 */
export function apiKeyCreationsPerMinute(env: Record<string, string | undefined> = process.env): number {
  const raw = env.API_KEY_CREATIONS_PER_ORG_PER_MINUTE;
  const n = raw === undefined || raw === '' ? 20 : Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 20;
}
