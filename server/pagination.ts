import type { auditEvents, notifications } from '@/db/schema';
import { and, eq, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { z } from 'zod';
import { DomainError } from './errors';
import { idPattern } from './ids';

/** `limit` as a verb takes it: 1–500, default 100 (docs/product.md §5 Lists). */
export const LimitNumber = z.int({ error: 'must be an integer from 1 to 500' }).min(1, 'must be at least 1').max(500, 'must be at most 500');

/**
 * Digits as the number they write, anything else as it came (which the number's schema then
 * refuses): a query string's integer. Only plain digits count — not `1e2`, ` 1`, `0x10` or `` — as
 * `Number()` alone would read them; at most 6, so no digit string loses precision.
 */
export const queryDigits = (v: unknown): unknown => (typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v);

/**
 * `limit` as a query string carries it (server/rest/wire.ts): digits, read into LimitNumber, so
 * that the document renders it as the integer it is, with its range.
 */
export const Limit = z.preprocess(queryDigits, LimitNumber);

/** The 400 for a cursor this API did not hand out. */
export function malformedCursor(): DomainError {
  return new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous page unchanged.', {
    errors: [{ path: 'query.cursor', message: 'is not a cursor this API returned' }],
  });
}

/** The key inside a cursor (base64url of JSON `{ k }`), or null when it is not one we encoded. */
function cursorKey(cursor: string): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'k' in parsed && typeof parsed.k === 'string' && cursor === encodeCursor(parsed.k)) return parsed.k;
  } catch {
    // not base64url JSON: malformed
  }
  return null;
}

/**
 * Reads an opaque cursor (base64url of JSON `{ k }`, the last key of the previous page).
 * @throws DomainError invalid_request for anything this API did not hand out.
 */
export function decodeCursor(cursor: string): string {
  const key = cursorKey(cursor);
  if (key === null || !idPattern.test(key)) throw malformedCursor();
  return key;
}

export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ k: key }), 'utf8').toString('base64url');
}

// "/" is not an id character (docs/product.md §5 Ids), so it separates the parts of a key unambiguously.
const KEY_SEPARATOR = '/';

/** The cursor key of a row ordered by several ids, e.g. (nodeId, id): pass it to `toPage` as `keyOf`. */
export function compositeKey(...parts: string[]): string {
  return parts.join(KEY_SEPARATOR);
}

/**
 * Reads a cursor over rows ordered by `arity` ids (see `compositeKey`).
 * @throws DomainError invalid_request for anything this API did not hand out.
 */
export function decodeCompositeCursor(cursor: string, arity: number): string[] {
  const parts = cursorKey(cursor)?.split(KEY_SEPARATOR);
  if (!parts || parts.length !== arity || !parts.every((p) => idPattern.test(p))) throw malformedCursor();
  return parts;
}

/** A list answer (docs/product.md §5 Lists): `nextCursor` only when another page follows. */
export type Page<T> = { items: T[]; nextCursor?: string };

/**
 * The one way every list pages: fetch `limit + 1` rows in key order and pass them here; the
 * extra row only says that another page follows, and the cursor is the last kept row's key.
 * @param toItems turns the kept rows into the answer's items (views, visibility filters).
 */
export async function toPage<T, U>(rows: T[], limit: number, keyOf: (row: T) => string, toItems: (rows: T[]) => U[] | Promise<U[]>): Promise<Page<U>> {
  const kept = rows.length > limit ? rows.slice(0, limit) : rows;
  const items = await toItems(kept);
  return rows.length > limit ? { items, nextCursor: encodeCursor(keyOf(kept[kept.length - 1]!)) } : { items };
}

/**
 * Where a page of an append-only sequence (audit events, notifications: newest first by `seq`)
 * resumes, from a cursor naming the previous page's last row by its public `id`. The `seq`
 * orders the list but never leaves the server (docs/product.md §9.3): it counts every
 * org's rows, so a cursor carrying it would tell a caller how much the whole platform did
 * between two of its pages.
 * @param visible the caller's visibility of one row of `table` (server/policy.ts): the named
 *   row is looked up under it, so that a cursor naming a row the caller may not see — another
 *   org's notification, an audit event it may not read — is refused exactly like one naming
 *   no row, and tells nothing of it (§8 R6). Undefined: every row (the operator's audit trail).
 * @returns SQL: rows older than the named one.
 * @throws DomainError invalid_request for a cursor this API did not hand out (or naming no row the caller may see).
 */
export async function olderThanCursor(db: DbOrTx, table: typeof auditEvents | typeof notifications, cursor: string, visible: SQL | undefined): Promise<SQL> {
  const id = decodeCursor(cursor);
  if (!idPattern.test(id)) throw malformedCursor();
  const [row] = await db
    .select({ seq: table.seq })
    .from(table)
    .where(and(eq(table.id, id), visible));
  if (!row) throw malformedCursor();
  return lt(table.seq, row.seq);
}
