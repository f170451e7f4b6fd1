import Link from 'next/link';

/** One classified change, as server/openapi/changes.ts reports it. */
export type ChangeItem = { id: string; breaking: boolean; operation: string; where: string; text: string };
/** One revision of the contract with its changes. */
export type RevisionItem = { revision: number; version: string; date: string; changes: ChangeItem[] };
/** One operation's history, from the changelog (docs/product.md §5 "Revisions and the changelog"). */
export type OperationHistoryData = { since?: RevisionItem; changed: RevisionItem[] };

/**
 * "Changes": which revision an operation first appears in and each later revision that changed
 * it, every change by its oasdiff check id and marked breaking or not, linked to the changelog
 * (docs/product.md §5 "Revisions and the changelog").
 */
export function OperationHistory({ history, revisions }: { history: OperationHistoryData; revisions: number }) {
  return (
    <section aria-label="Changes" className="space-y-1 text-sm">
      <h4 className="font-semibold">Changes</h4>
      <p>
        Changed in {history.changed.length} of the {revisions} revision{revisions === 1 ? '' : 's'} of this API
        {history.since && (
          <>
            {'; '}present since{' '}
            <Link href={`/docs/api/changelog#revision-${history.since.revision}`} className="text-accent-ink underline">
              revision {history.since.revision} ({history.since.version}, {history.since.date})
            </Link>
          </>
        )}
        .
      </p>
      {history.changed.length > 0 && (
        <ul className="space-y-2">
          {history.changed.map((entry) => (
            <li key={entry.revision}>
              <Link href={`/docs/api/changelog#revision-${entry.revision}`} className="text-accent-ink underline">
                Revision {entry.revision} ({entry.version}, {entry.date})
              </Link>
              <ChangeList changes={entry.changes} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Changes as a list: each one's wording, where, its oasdiff check id, and breaking or not
 * (docs/product.md §5 "Revisions and the changelog").
 */
export function ChangeList({ changes }: { changes: readonly ChangeItem[] }) {
  return (
    <ul className="mt-1 space-y-1">
      {changes.map((c, i) => (
        <li key={i} className="flex flex-wrap items-baseline gap-x-2">
          <span className={c.breaking ? 'font-semibold text-danger' : 'text-ink-3'}>{c.breaking ? 'breaking' : 'compatible'}</span>
          <span>
            {c.text} <code>{c.where}</code>
          </span>
          <code className="text-xs text-ink-3">{c.id}</code>
        </li>
      ))}
    </ul>
  );
}
