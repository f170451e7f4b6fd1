/**
 * The window every export names (docs/product.md §5.8): `since` (inclusive) and `until`
 * (exclusive) are required, `until` after `since` and at most 31 days after it, so that one
 * request's cost stays bound; the JSON list takes either, or neither, as before.
 */
import { DomainError } from '../errors';

/** The longest window one export may name. */
export const MAX_EXPORT_DAYS = 31;
const MAX_EXPORT_MS = MAX_EXPORT_DAYS * 24 * 60 * 60 * 1000;

/** A list input as an export reads it: the window, and the paging fields it must not be given. */
export type ExportableInput = { since?: Date; until?: Date; cursor?: string; limit?: number };

/** An export's window. */
export type ExportWindow = { since: Date; until: Date };

/**
 * Why an export's input is refused, in words (the problem's `detail`). Named, so the console's
 * download form can say it again beside its fields after sending the browser back
 * (server/exports/console-route.ts) without carrying any text in the URL.
 */
export const exportRefusals = {
  'cursor-given': 'An export reads every page itself; send it without cursor, and narrow it with since and until.',
  'limit-given': 'An export reads every page itself; send it without limit, and narrow it with since and until.',
  'since-missing': `An export needs since and until (ISO 8601 UTC), at most ${MAX_EXPORT_DAYS} days apart; since is missing.`,
  'until-missing': `An export needs since and until (ISO 8601 UTC), at most ${MAX_EXPORT_DAYS} days apart; until is missing.`,
  'window-empty': 'The export window is empty: until must be after since.',
  'window-too-long': `An export covers at most ${MAX_EXPORT_DAYS} days; choose an until at most ${MAX_EXPORT_DAYS} days after since, or export in parts.`,
} as const;

/** A named refusal of an export's input (`exportRefusals`). */
export type ExportRefusal = keyof typeof exportRefusals;

/** The named refusal a problem's detail is, if it is one. */
export function exportRefusalOf(detail: string): ExportRefusal | undefined {
  return (Object.keys(exportRefusals) as ExportRefusal[]).find((k) => exportRefusals[k] === detail);
}

function refused(field: string, message: string, reason: ExportRefusal): DomainError {
  return new DomainError('invalid_request', exportRefusals[reason], { errors: [{ path: `query.${field}`, message }] });
}

/**
 * Checks an export's input: the window present and at most 31 days long; no `cursor` or `limit`
 * (an export reads every page itself).
 * @returns the window.
 * @throws DomainError invalid_request naming `query.since`, `query.until`, `query.cursor` or `query.limit`.
 */
export function assertExportWindow(input: ExportableInput): ExportWindow {
  for (const field of ['cursor', 'limit'] as const) {
    if (input[field] !== undefined) throw refused(field, 'is not taken by an export', `${field}-given`);
  }
  const { since, until } = input;
  if (!since) throw refused('since', 'is required for an export', 'since-missing');
  if (!until) throw refused('until', 'is required for an export', 'until-missing');
  if (until.getTime() <= since.getTime()) throw refused('until', 'must be after since', 'window-empty');
  if (until.getTime() - since.getTime() > MAX_EXPORT_MS) throw refused('until', `must be at most ${MAX_EXPORT_DAYS} days after since`, 'window-too-long');
  return { since, until };
}
