import { apiKeys } from '@/db/schema';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Ctx } from '../context';
import { DomainError } from '../errors';
import { decodeCursor, toPage, type Page } from '../pagination';
import { apiKeysVisibleTo } from '../policy';
import { selectApiKeyViews } from './internal';
import type { ListApiKeysInput } from './schemas';
import { toApiKeyView, type ApiKeyView } from './view';

/** A page boundary: the last key's creation time (ms) and id, the list's order. */
/** The last millisecond of year 9999: a later time has no ISO 8601 form PostgreSQL reads back. */
const LATEST_CURSOR_MS = 253_402_300_799_999;

function decodeKeyCursor(cursor: string): { createdAt: Date; id: string } {
  const match = /^(\d{1,15})\.(.+)$/.exec(decodeCursor(cursor));
  // A hand-made cursor past year 9999 (a console URL's `?cursor=`) is as malformed as any
  // other: postgres.js would send its time as `+033658-…`, which PostgreSQL refuses (a 500).
  if (!match || Number(match[1]) > LATEST_CURSOR_MS) {
    throw new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous page unchanged.', {
      errors: [{ path: 'query.cursor', message: 'is not a cursor this API returned' }],
    });
  }
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

/**
 * The acting org's API keys, newest first, revoked ones included (with `revokedAt`), so a
 * person sees what was revoked and when (docs/product.md §2: an org's keys are its own — the
 * operator, too, sees only the platform's; §6 API keys page). Never a secret. Each key says
 * who created it (`createdBy`, §5 Objects) when that was recorded.
 * @param input.limit 1–500, default 100. @param input.cursor from a previous page.
 * @returns `{ items, nextCursor? }`
 * @throws DomainError invalid_request for a cursor this API did not hand out.
 */
export async function listApiKeys({ ctx, input }: { ctx: Ctx; input: ListApiKeysInput }): Promise<Page<ApiKeyView>> {
  const limit = input.limit ?? 100;
  const after = input.cursor !== undefined ? decodeKeyCursor(input.cursor) : undefined;
  const rows = await selectApiKeyViews(ctx.db)
    .where(
      and(
        apiKeysVisibleTo(ctx),
        after ? or(lt(apiKeys.createdAt, after.createdAt), and(eq(apiKeys.createdAt, after.createdAt), lt(apiKeys.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    ({ key: k }) => `${k.createdAt.getTime()}.${k.id}`,
    (kept) => kept.map(toApiKeyView),
  );
}
