import type { ReactNode } from 'react';

/** One column of a DataTable: its header and how a row fills its cell. */
export type Column<T> = {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string;
  headerClassName?: string;
  /** A sortable column's `aria-sort`: how the list is sorted by it now. */
  ariaSort?: 'ascending' | 'descending' | 'none';
};

/**
 * The table every list page shares: a header row, one row per item (`data-<rowAttr>` names it
 * for tests and scripts), and a message when there is nothing to show.
 */
export function DataTable<T>(props: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Written as `data-<name>="<key>"` on each row, e.g. `vm-id`. */
  rowAttr?: string;
  /** More `data-*` attributes of a row, e.g. its kind: `{ 'data-notification-kind': … }`. */
  rowData?: (row: T) => Record<`data-${string}`, string>;
  empty: ReactNode;
  testId?: string;
  className?: string;
  headClassName?: string;
  rowClassName?: string;
}) {
  const { columns, rows, rowKey, rowAttr, rowData, empty, testId, className, headClassName, rowClassName } = props;
  // A table wider than its card scrolls inside it, never the page (issue 23); `relative` keeps
  // its screen-reader-only (absolute) header text inside the scroll too.
  return (
    <div className="relative max-w-full overflow-x-auto">
      <table className={className ?? 'w-full text-left text-sm'} data-testid={testId}>
        <thead className={headClassName ?? 'text-xs uppercase tracking-wide text-ink-4'}>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={c.headerClassName ?? 'py-2 pr-4 font-medium'} aria-sort={c.ariaSort}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line-soft">
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName} {...(rowAttr ? { [`data-${rowAttr}`]: rowKey(row) } : {})} {...rowData?.(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.className ?? 'py-2 pr-4'}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="px-4 py-6 text-center text-ink-4">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
