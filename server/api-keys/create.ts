import { apiKeys, apiKeyScopes } from '@/db/schema';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { lockOrg } from '../orgs/internal';
import { apiKeysVisibleTo, assertMayGrantScopes, grantableScopes } from '../policy';
import { issueApiKey, selectApiKeyViews } from './internal';
import { apiKeyCreationsPerMinute, MAX_ACTIVE_API_KEYS_PER_ORG } from './limits';
import type { CreateApiKeyInput } from './schemas';
import { toApiKeyView, type CreatedApiKeyView } from './view';

const MINUTE_MS = 60_000;

/**
 * Creates an API key for the acting org (docs/product.md §2 "manage the org's API keys": an admin
 * or a `keys:manage` key of the org — the operation's scope; §7: 256-bit random, stored as its
 * SHA-256 only), holding `input.scopes` for its life: at most the creator's own (a key's scopes,
 * an admin's all four); omitted, all of them.
 * The answer is the one time the secret is shown: nothing stores it, so no later call — nor an
 * Idempotency-Key replay, which this route refuses (docs/product.md §9 m) — can show it again.
 *
 * Bounded per org (§2, §9.3): under the org's row lock, which every creation of the org takes
 * first, it counts the org's active keys (at most `MAX_ACTIVE_API_KEYS_PER_ORG`, 100) and its
 * keys created in the last 60 s (at most `API_KEY_CREATIONS_PER_ORG_PER_MINUTE`, 20), so
 * concurrent creations never overshoot either. The key records its creator (`createdBy`: the
 * user, key or job behind the principal). Writes the org-level audit event `api_key.create` (id,
 * name and prefix; never the secret) in the same transaction.
 * @param input.name 1–100 characters, what the key is for.
 * @param input.scopes what the key may call (docs/product.md §2 Scopes); omitted: all the creator holds.
 * @returns the key, with `createdBy`, and its `secret`.
 * @throws DomainError insufficient_scope (403, `scope`: a scope the creating key lacks), limit_reached (409, `limit`: the org has 100 active keys; revoke one
 *   first), rate_limited (429 with Retry-After: the org created its 20 keys of the minute).
 */
export async function createApiKey({ ctx, input }: { ctx: Ctx; input: CreateApiKeyInput }): Promise<CreatedApiKeyView> {
  // Who may create keys at all (an admin, a `keys:manage` key) is the operation's scope; which
  // scopes it may give is this: none it lacks itself.
  const scopes = input.scopes ?? grantableScopes(ctx);
  assertMayGrantScopes(ctx, scopes);
  return inTransaction(ctx, async (tx) => {
    await lockOrg(tx, ctx.orgId);
    // Statements after the lock: each sees every creation committed before it was granted.
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(apiKeysVisibleTo(ctx), isNull(apiKeys.revokedAt)));
    if (active!.n >= MAX_ACTIVE_API_KEYS_PER_ORG) {
      throw new DomainError(
        'limit_reached',
        `Your org already has ${MAX_ACTIVE_API_KEYS_PER_ORG} active API keys, the most it may have; revoke one it no longer needs, then create this one.`,
        { limit: MAX_ACTIVE_API_KEYS_PER_ORG },
      );
    }
    const perMinute = apiKeyCreationsPerMinute();
    if (perMinute > 0) {
      const recent = await tx
        .select({ createdAt: apiKeys.createdAt })
        .from(apiKeys)
        .where(and(apiKeysVisibleTo(ctx), gt(apiKeys.createdAt, new Date(ctx.now.getTime() - MINUTE_MS))))
        .orderBy(desc(apiKeys.createdAt))
        .limit(perMinute);
      if (recent.length >= perMinute) {
        // The window is sliding: one more may be created once the oldest of these is a minute old.
        const retryAfterSeconds = Math.max(1, Math.ceil((recent.at(-1)!.createdAt.getTime() + MINUTE_MS - ctx.now.getTime()) / 1000));
        throw new DomainError(
          'rate_limited',
          `Your org has created ${perMinute} API keys within the last minute, the most it may; retry in ${retryAfterSeconds} s.`,
          {},
          { retryAfterSeconds },
        );
      }
    }
    const { secret, row } = await issueApiKey(tx, { orgId: ctx.orgId, name: input.name, now: ctx.now, createdBy: ctx.actor, scopes });
    await writeAuditEvent(tx, ctx, {
      action: 'api_key.create',
      unitIds: [],
      details: { apiKeyId: row.id, name: row.name, prefix: row.prefix, scopes: apiKeyScopes.filter((s) => scopes.includes(s)) },
    });
    const [view] = await selectApiKeyViews(tx).where(eq(apiKeys.id, row.id));
    return { ...toApiKeyView(view!), secret };
  });
}
