/**
 * Media types of the API's requests and answers, shared by REST and tRPC (docs/product.md §5):
 * one check of a request body's type, and the names of the two types the API answers with, so
 * that no transport spells them its own way.
 */
import Negotiator from 'negotiator';
import { DomainError } from '../errors';

/** The media type of every successful JSON answer. */
export const JSON_MEDIA_TYPE = 'application/json';

/** The media type of every error answer (RFC 9457, docs/product.md §5 Errors). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * docs/product.md §5 Requests: a body is `application/json` in UTF-8, without Content-Encoding
 * (else 415) — on REST and tRPC alike.
 * @throws DomainError unsupported_media_type
 */
export function assertJsonMediaType(headers: Headers): void {
  const [type = '', ...params] = (headers.get('content-type') ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replaceAll('"', '');
  const encoding = (headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (type !== JSON_MEDIA_TYPE || (charset && charset !== 'utf-8' && charset !== 'utf8') || encoding !== 'identity') {
    throw new DomainError('unsupported_media_type', 'Send the request body as application/json in UTF-8, without Content-Encoding.');
  }
}

/** The media type of a CSV export (RFC 4180; docs/product.md §5.8). */
export const CSV_MEDIA_TYPE = 'text/csv';

/** The media type of an NDJSON export: one JSON object per line (docs/product.md §5.8). */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * The type to answer a request's `Accept` with, among those a route can give, the first of them
 * for an absent `Accept` or `*\/*` (JSON, for every route: docs/product.md §5).
 * @param offered the route's types, its default first.
 * @throws DomainError not_acceptable when `Accept` names none of them.
 */
export function negotiateMediaType<T extends string>(accept: string | null, offered: readonly [T, ...T[]]): T {
  if (accept === null || accept.trim() === '') return offered[0];
  const chosen = new Negotiator({ headers: { accept } }).mediaType([...offered]) as T | undefined;
  if (chosen) return chosen;
  throw new DomainError('not_acceptable', `This route answers ${offered.join(', ')}; send an Accept header that allows one of them, or none.`);
}
