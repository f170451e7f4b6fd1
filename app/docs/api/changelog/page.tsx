import { ChangeList } from '@/components/api-reference/operation-history';
import { listChangelog } from '@/server/openapi/revisions';

export const metadata = { title: 'API changelog · GPU Reservations' };

/**
 * The API's changelog (docs/product.md §5 "Revisions and the changelog"): every committed
 * revision of the contract, newest first, each change by operation with its oasdiff check id and
 * marked breaking or not. Rendered on the server; no sign-in.
 */
export default function ApiChangelogPage() {
  const log = listChangelog();
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-semibold">API changelog</h1>
      <p className="text-sm text-ink-3">
        Every revision of the{' '}
        {/* A full load, not a client navigation: the reference's styles carry the CSP nonce of the document they load with (app/docs/api/page.tsx). */}
        <a href="/docs/api" className="text-accent-ink underline">
          API
        </a>
        &apos;s contract, newest first. Each change is named by its oasdiff check id; a breaking one (a client of the previous revision may fail) comes with a
        new major version.
      </p>
      <ol className="space-y-6">
        {log.map((entry) => {
          const byOperation = new Map<string, typeof entry.changes>();
          for (const c of entry.changes) byOperation.set(c.operation, [...(byOperation.get(c.operation) ?? []), c]);
          const breaking = entry.changes.filter((c) => c.breaking).length;
          return (
            <li key={entry.revision} id={`revision-${entry.revision}`} className="scroll-mt-4 space-y-2 rounded-lg border border-line bg-surface p-4">
              <h2 className="text-lg font-semibold">
                Revision {entry.revision} · version {entry.version} · {entry.date}
              </h2>
              {entry.revision === 1 ? (
                <p className="text-sm">
                  The first revision: the document as issue 27 corrected it, {entry.operations} operations. Earlier changes are not reconstructed.
                </p>
              ) : (
                <p className="text-sm">
                  {entry.changes.length} change{entry.changes.length === 1 ? '' : 's'}, {breaking} breaking.
                </p>
              )}
              {[...byOperation].map(([operation, changes]) => (
                <div key={operation} className="text-sm">
                  <h3 className="font-mono font-semibold wrap-anywhere">{operation}</h3>
                  <ChangeList changes={changes} />
                </div>
              ))}
            </li>
          );
        })}
      </ol>
    </main>
  );
}
