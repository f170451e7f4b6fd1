/**
 * An export's answer (docs/product.md §5.8): the list verb itself, paged through to the end and
 * written as CSV or NDJSON while the client reads. One source of truth — every page is the very
 * call the JSON list makes (same filters, same visibility, same per-reader fields), only with the
 * largest page and the previous page's cursor — and no transaction spans pages: each page is its
 * own short reads on the pool. The stream pulls a page only when the client has taken the last
 * one (bounded memory) and stops reading as soon as the client goes away. REST
 * (server/rest/route.ts) and the console's download route (server/exports/console-route.ts)
 * both answer through here, after their own authentication; either counts the export as one
 * request against its rate limit.
 */
import type { Ctx } from '../context';
import { CSV_MEDIA_TYPE, NDJSON_MEDIA_TYPE } from '../http/media-type';
import type { Page } from '../pagination';
import { toCsvRecords } from './csv';
import type { ExportDeclaration } from './declaration';
import { assertExportWindow, type ExportableInput, type ExportWindow } from './window';

/** The formats an export is written in. */
export type ExportFormat = 'csv' | 'ndjson';

/** Each format's media type; the CSV one says its first record is the header row (RFC 4180 §3). */
const contentTypes: Record<ExportFormat, string> = {
  csv: `${CSV_MEDIA_TYPE}; charset=utf-8; header=present`,
  ndjson: `${NDJSON_MEDIA_TYPE}; charset=utf-8`,
};

/** The format a negotiated media type names, or null for JSON. */
export function exportFormatOf(mediaType: string): ExportFormat | null {
  if (mediaType === CSV_MEDIA_TYPE) return 'csv';
  if (mediaType === NDJSON_MEDIA_TYPE) return 'ndjson';
  return null;
}

/** The rows of one page request: the page size of every export page, the list's largest. */
export const EXPORT_PAGE_SIZE = 500;

/** `2026-12-01T00:00:00.000Z` → `20261201T000000Z`: a file name without `:` (refused by Windows). */
function compactStamp(at: Date): string {
  // Milliseconds stay when the window names them, so two windows never share a name.
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.000Z$/, 'Z');
}

/** The download's file name: `audit-20261201T000000Z-20261208T000000Z.csv`. */
export function exportFileName(name: string, window: ExportWindow, format: ExportFormat): string {
  return `${name}-${compactStamp(window.since)}-${compactStamp(window.until)}.${format}`;
}

/** One list call: the verb as its transport runs it (REST: with its `answer`), giving the JSON list's page. */
export type ListPage = (args: { ctx: Ctx; input: unknown }) => Promise<unknown>;

/**
 * Answers an export: checks the window (400 naming the field), reads the first page before
 * answering — so that the verb's own refusals (an unknown node, …) are still problems with their
 * status — then streams it and every later page.
 * @param input the list's parsed input, the window in it.
 * @param signal the request's: once aborted no further page is read.
 * @returns a 200 `Response` whose body is a `ReadableStream` of the file.
 * @throws DomainError invalid_request for a missing or too long window, or a cursor or limit; the verb's own errors.
 */
export async function answerExport({
  ctx,
  list,
  declaration,
  input,
  format,
  signal,
}: {
  ctx: Ctx;
  list: ListPage;
  declaration: ExportDeclaration<unknown>;
  input: ExportableInput & Record<string, unknown>;
  format: ExportFormat;
  signal?: AbortSignal;
}): Promise<Response> {
  const window = assertExportWindow(input);
  const page = async (cursor: string | undefined) =>
    (await list({ ctx, input: { ...input, limit: EXPORT_PAGE_SIZE, ...(cursor !== undefined ? { cursor } : {}) } })) as Page<unknown>;
  let pending: Page<unknown> | null = await page(undefined);
  let cursor: string | undefined;
  let first = true;
  let stopped = false;
  const encoder = new TextEncoder();
  const encode = (items: unknown[]): string => {
    if (format === 'ndjson') return items.map((item) => JSON.stringify(item) + '\n').join('');
    const text = toCsvRecords(declaration.columns, items, first);
    first = false;
    return text;
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stopped || signal?.aborted) {
          controller.close();
          return;
        }
        const current: Page<unknown> = pending ?? (await page(cursor));
        pending = null;
        const text = encode(current.items);
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (current.nextCursor === undefined) controller.close();
        else cursor = current.nextCursor;
      },
      cancel() {
        // The client went away (or a HEAD drops the body): read no further page.
        stopped = true;
      },
    },
    // Nothing is read ahead of the client: the next page is read when it asks for more.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': contentTypes[format],
      'content-disposition': `attachment; filename="${exportFileName(declaration.name, window, format)}"`,
      'cache-control': 'no-store',
    },
  });
}
