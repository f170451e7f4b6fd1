'use client';

import type { ReactNode } from 'react';
import { StaleBanner } from '../live/stale-banner';
import { useLastGood } from '../live/use-last-good';
import type { Fetched } from '../trpc-types';
import { DataTable, type Column } from './data-table';
import { UrlPager } from './url-pager';

/** A padded column of a PagedTable (every list page pads its cells alike). */
export function column<T>(key: string, header: ReactNode, cell: (row: T) => ReactNode, className = ''): Column<T> {
  return { key, header, cell, headerClassName: 'px-4 py-2 font-medium', className: `px-4 py-2 align-top ${className}` };
}

/** What a server page read for a PagedTable: one page of a `{ items, nextCursor? }` answer, or its error. */
export type PageResult<T> = Fetched<{ items: T[]; nextCursor?: string }>;

/**
 * One cursor-paged list (docs/product.md §5 Lists) as every list page shows it: the table, the
 * problem when the call failed (in words already: the server page said it, app/(console)/server-reads.ts;
 * a bad filter by its label), the empty message when nothing matches, and the
 * pager — the page the URL's `cursor` names, read by the server page (UrlPager).
 * @param scope what else selects the list (its filters): a new one restarts the page count.
 */
export function PagedTable<T>(props: {
  result: PageResult<T>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  rowAttr?: string;
  empty: ReactNode;
  cursor: string | undefined;
  scope?: string;
  testId?: string;
}) {
  const { columns, rowKey, rowAttr, empty, cursor, scope, testId } = props;
  // A failed refresh keeps this page's rows, with the error above them.
  const result = useLastGood(props.result, `${scope ?? ''}|${cursor ?? ''}`);
  return (
    <div className="space-y-3">
      {result.error && result.data && <StaleBanner error={result.error} what="the list" />}
      {result.error && !result.data && (
        <p role="alert" className="rounded-md border border-danger-line bg-danger-soft p-3 text-sm text-danger-ink">
          {result.error}
        </p>
      )}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface shadow-sm">
        <DataTable
          columns={columns}
          rows={result.data?.items ?? []}
          rowKey={rowKey}
          rowAttr={rowAttr}
          testId={testId}
          rowClassName="hover:bg-surface-2"
          headClassName="border-b border-line bg-surface-2 text-xs uppercase tracking-wide text-ink-4"
          empty={result.data ? empty : 'Nothing to show.'}
        />
      </div>
      <UrlPager cursor={cursor} scope={scope} nextCursor={result.data?.nextCursor} />
    </div>
  );
}
