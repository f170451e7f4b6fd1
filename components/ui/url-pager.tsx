'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';

/**
 * The cursors visited on a list paged through its URL (`?cursor=`), so "Previous" can go back
 * without the API offering reverse cursors: the URL's cursor is the current page; one seen
 * before (Previous, or the browser's back button) cuts the trail there. A new `scope` (another
 * filter) starts a new trail. A trail that starts at a cursor (a shared link to a later page)
 * does not know its page number or the page before its first.
 * @returns the page number from 0 (from the trail's start), the cursor of the page before it,
 *   and whether the trail starts at the first page.
 */
function useUrlCursorTrail(cursor: string | undefined, scope: string): { page: number; previous: string | undefined; fromFirst: boolean } {
  const [trail, setTrail] = useState<{ scope: string; cursors: (string | undefined)[] }>({ scope, cursors: [cursor] });
  // The first page (no cursor) is always page 1, whatever came before (Back after a reload).
  let cursors = trail.scope === scope && cursor !== undefined ? trail.cursors : [cursor];
  const at = cursors.lastIndexOf(cursor);
  cursors = at === -1 ? [...cursors, cursor] : cursors.slice(0, at + 1);
  // Adjusting state while rendering: React's pattern for state that follows a prop.
  if (trail.scope !== scope || cursors.length !== trail.cursors.length) setTrail({ scope, cursors });
  return { page: cursors.length - 1, previous: cursors.at(-2), fromFirst: cursors[0] === undefined };
}

/** This page's URL with `cursor` set (or removed), its other parameters (the filters) kept. */
export function useCursorHref(): (cursor: string | undefined) => string {
  const pathname = usePathname();
  const search = useSearchParams();
  return (cursor) => {
    const params = new URLSearchParams(search.toString());
    if (cursor) params.set('cursor', cursor);
    else params.delete('cursor');
    const q = params.toString();
    return q ? `${pathname}?${q}` : pathname;
  };
}

type PagerCount = { total: number; capped: boolean; pageSize: number; shown: number; noun: (total: number, capped: boolean) => string };

/** Where this page stands in a counted list; a trail opened at a later page knows only the count. */
function countLine(c: PagerCount, trail: { page: number; fromFirst: boolean }): string {
  const of = c.noun(c.total, c.capped);
  if (!trail.fromFirst || c.shown === 0) return c.shown === 0 ? `0 of ${of}` : `${c.shown} of ${of}`;
  const first = trail.page * c.pageSize + 1;
  const fmt = (n: number) => n.toLocaleString('en-US');
  const pages = c.capped ? '' : ` of ${fmt(Math.max(1, Math.ceil(c.total / c.pageSize)))}`;
  return `${fmt(first)}–${fmt(first + c.shown - 1)} of ${of} · page ${fmt(trail.page + 1)}${pages}`;
}

const linkClass = 'rounded-md border border-line-strong bg-surface px-3 py-1.5 hover:bg-surface-2';
const offClass = 'rounded-md border border-line-strong bg-surface px-3 py-1.5 opacity-40';

function PageLink({ href, children }: { href: string | undefined; children: string }) {
  if (href === undefined) {
    return (
      <button type="button" disabled className={offClass}>
        {children}
      </button>
    );
  }
  // No prefetch: each page is read when asked for, and prefetches count against the rate limit.
  return (
    <Link href={href} prefetch={false} role="button" className={linkClass}>
      {children}
    </Link>
  );
}

/**
 * "← Previous · Page n · Next →" under a list paged through its URL (docs/product.md §5 Lists):
 * links, so a page is a URL (reload, share, the back button) and paging works without
 * JavaScript; the server page reads the page the URL's `cursor` names.
 * @param cursor the URL's cursor (this page's); scope what else selects the list (its filters).
 */
export function UrlPager({
  cursor,
  scope = '',
  nextCursor,
  count,
}: {
  cursor: string | undefined;
  scope?: string;
  nextCursor: string | undefined;
  /** A list that counts its matches (up to a cap): "11–20 of 2,345 nodes · page 2 of 235". */
  count?: PagerCount;
}) {
  const trail = useUrlCursorTrail(cursor, scope);
  const hrefFor = useCursorHref();
  return (
    <div className="flex items-center justify-between text-sm">
      {/* Opened at a later page from a link: its number is unknown, and "back" is the first page. */}
      <span className="text-ink-3" data-testid="pager-position">
        {count ? countLine(count, trail) : trail.fromFirst ? `Page ${trail.page + 1}` : ''}
      </span>
      <div className="flex gap-2">
        {trail.page === 0 && !trail.fromFirst ? (
          <PageLink href={hrefFor(undefined)}>← First page</PageLink>
        ) : (
          <PageLink href={trail.page > 0 ? hrefFor(trail.previous) : undefined}>← Previous</PageLink>
        )}
        <PageLink href={nextCursor ? hrefFor(nextCursor) : undefined}>Next →</PageLink>
      </div>
    </div>
  );
}
