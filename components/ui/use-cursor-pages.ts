'use client';

import { useState } from 'react';

/**
 * Cursor paging for a list page (docs/product.md §5 Lists): the cursors of the pages visited,
 * so "Previous" goes back without the API offering reverse cursors.
 * @returns the current page's cursor (undefined on the first), its number from 0, and moves.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  return {
    cursor: cursors[page],
    page,
    /** Goes to the page after this one (pass the answer's `nextCursor`). */
    next: (nextCursor: string | undefined) => nextCursor && setCursors((c) => [...c, nextCursor]),
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    /** Back to the first page, e.g. when a filter changes. */
    reset: () => setCursors([undefined]),
  };
}

/** "← Previous · Page n · Next →" for a list paged by `useCursorPages`. */
export type CursorPages = ReturnType<typeof useCursorPages>;
