'use client';

import type { CursorPages } from './use-cursor-pages';

/** The paging bar under a list: the page number, and Previous / Next by cursor. */
export function Pager({ pages, nextCursor }: { pages: CursorPages; nextCursor: string | undefined }) {
  return (
    <div className="flex items-center justify-between text-sm">
      <span className="text-slate-600">Page {pages.page + 1}</span>
      <div className="flex gap-2">
        <button type="button" disabled={pages.page === 0} onClick={pages.previous} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50 disabled:opacity-40">
          ← Previous
        </button>
        <button type="button" disabled={!nextCursor} onClick={() => pages.next(nextCursor)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50 disabled:opacity-40">
          Next →
        </button>
      </div>
    </div>
  );
}
