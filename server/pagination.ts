import { z } from 'zod';
import { DomainError } from './errors';
import { idPattern } from './ids';

/** `limit` query parameter: 1–500, default 100 (docs/product.md §5 Lists). */
export const Limit = z
  .string()
  .regex(/^\d{1,4}$/, 'must be an integer from 1 to 500')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(500, 'must be at most 500'));

/** `limit` as a verb takes it. */
export const LimitNumber = z.number().int().min(1, 'must be at least 1').max(500, 'must be at most 500');

/**
 * Reads an opaque cursor (base64url of JSON `{ k }`, the last key of the previous page).
 * @throws DomainError invalid_request for anything this API did not hand out.
 */
export function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'k' in parsed && typeof parsed.k === 'string' && idPattern.test(parsed.k) && cursor === encodeCursor(parsed.k)) return parsed.k;
  } catch {
    // fall through to the 400
  }
  throw new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous page unchanged.', {
    errors: [{ path: 'query.cursor', message: 'is not a cursor this API returned' }],
  });
}

export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ k: key }), 'utf8').toString('base64url');
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

/** A cursor over an append-only sequence. @throws DomainError invalid_request */
export function decodeSeqCursor(cursor: string): number {
  const key = decodeCursor(cursor);
  const seq = /^\d{1,15}$/.test(key) ? Number(key) : NaN;
  if (!Number.isSafeInteger(seq)) throw new DomainError('invalid_request', 'The cursor is malformed; pass the nextCursor of a previous page unchanged.', { errors: [{ path: 'query.cursor', message: 'is not a cursor this API returned' }] });
  return seq;
}
