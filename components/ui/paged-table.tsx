'use client';

import type { ReactNode } from 'react';
import { errorMessage } from '../problem';
import { DataTable, type Column } from './data-table';
import { Pager } from './pager';
import type { CursorPages } from './use-cursor-pages';

/** A padded column of a PagedTable (every list page pads its cells alike). */
export function column<T>(key: string, header: ReactNode, cell: (row: T) => ReactNode, className = ''): Column<T> {
  return { key, header, cell, headerClassName: 'px-4 py-2 font-medium', className: `px-4 py-2 align-top ${className}` };
}

/** What a list query gives a PagedTable: TanStack Query's result of a `{ items, nextCursor? }` answer. */
export type PageResult<T> = { data?: { items: T[]; nextCursor?: string }; isError: boolean; error: unknown; isFetching?: boolean };

/**
 * One cursor-paged list (docs/product.md §5 Lists) as every list page shows it: the table, a
 * loading state until the first answer, the problem's `detail` when the call failed, the empty
 * message when nothing matches, and the pager.
 */
export function PagedTable<T>(props: { result: PageResult<T>; columns: readonly Column<T>[]; rowKey: (row: T) => string; rowAttr?: string; empty: ReactNode; pages: CursorPages; testId?: string }) {
  const { result, columns, rowKey, rowAttr, empty, pages, testId } = props;
  return (
    <div className="space-y-3">
      {result.isError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {errorMessage(result.error)}
        </p>
      )}
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm" aria-busy={result.isFetching ?? false}>
        <DataTable
          columns={columns}
          rows={result.data?.items ?? []}
          rowKey={rowKey}
          rowAttr={rowAttr}
          testId={testId}
          rowClassName="hover:bg-slate-50"
          headClassName="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500"
          empty={result.data ? empty : result.isError ? 'Nothing to show.' : 'Loading…'}
        />
      </div>
      <Pager pages={pages} nextCursor={result.data?.nextCursor} />
    </div>
  );
}
