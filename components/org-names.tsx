import { Fragment } from 'react';

/**
 * Org ids the caller sees, each by its name where the server gave it (docs/product.md §9.1 q:
 * an org shows by name where its id already shows; otherwise the id), the id beside it once.
 */
export function OrgIds({ ids, names = {} }: { ids: readonly string[]; names?: Record<string, string> }) {
  if (ids.length === 0) return <>—</>;
  // The comma outside the unbreakable id: a list wraps between orgs.
  return ids.map((id, i) => (
    <Fragment key={id}>
      {/* A name wraps between its words; an id never inside itself. */}
      {names[id] ? (
        <span>
          <span className="font-sans">{names[id]}</span> <span className="whitespace-nowrap font-mono text-xs text-ink-4">{id}</span>
        </span>
      ) : (
        <span className="whitespace-nowrap font-mono">{id}</span>
      )}
      {i < ids.length - 1 ? ', ' : ''}
    </Fragment>
  ));
}
