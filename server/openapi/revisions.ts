/**
 * The revisions of the contract (docs/product.md §5 "Revisions and the changelog"): each one the
 * contract projection (./contract.ts) of the document as it was published, with its
 * `info.version` and date, committed under ./revisions/. Revision 1 is the document issue 27
 * corrected; no earlier history is rebuilt. The changelog (`/docs/api/changelog`) is the
 * classified difference of each revision from the one before.
 *
 * `npx tsx server/openapi/revisions.ts --write` adds a revision when the served document's
 * contract differs from the latest one — after `info.version` in ./document.ts was raised as
 * the changes require (a major bump for a breaking one); it refuses otherwise.
 */
import { classifyChanges, checkVersionBump, type ContractChange } from './changes';
import type { ContractProjection } from './contract';
import { revisionFiles } from './revisions/index';

/** One committed revision. */
export type ContractRevision = { revision: number; version: string; date: string; contract: ContractProjection };

/** A revision with what changed since the one before it (none for the first). */
export type RevisionEntry = Omit<ContractRevision, 'contract'> & { changes: ContractChange[]; operations: number };

/**
 * Every committed revision, oldest first (docs/product.md §5 "Revisions and the changelog").
 * @returns the revisions as stored under server/openapi/revisions/.
 */
export function listRevisions(): ContractRevision[] {
  return revisionFiles as ContractRevision[];
}

let changelog: RevisionEntry[] | undefined;

/**
 * The changelog: every revision, newest first, each with its changes from the previous one
 * classified by oasdiff's check ids (docs/product.md §5 "Revisions and the changelog").
 */
export function listChangelog(): RevisionEntry[] {
  // The revisions are code: classified once per process.
  if (changelog) return changelog;
  const all = listRevisions();
  return (changelog = all
    .map(({ contract, ...rest }, i) => ({
      ...rest,
      operations: Object.keys(contract.operations).length,
      changes: i === 0 ? [] : classifyChanges(all[i - 1]!.contract, contract),
    }))
    .reverse());
}

/**
 * One operation's history (docs/product.md §5 "Revisions and the changelog"): the revision it
 * first appears in and each later revision that changed it.
 * @param operation `METHOD path`, e.g. `POST /v1/nodes/{nodeId}/reservations/{id}/reclaim`.
 */
export function listOperationHistory(operation: string): { since?: RevisionEntry; changed: RevisionEntry[] } {
  const log = [...listChangelog()].reverse();
  const revisions = listRevisions();
  const sinceIndex = revisions.findIndex((r) => operation in r.contract.operations);
  return {
    ...(sinceIndex >= 0 ? { since: log[sinceIndex]! } : {}),
    changed: log
      .slice(sinceIndex + 1)
      .map((entry) => ({ ...entry, changes: entry.changes.filter((c) => c.operation === operation) }))
      .filter((entry) => entry.changes.length > 0),
  };
}

/** The file a revision is stored in: its number, four digits. */
export const revisionFileName = (revision: number) => `${String(revision).padStart(4, '0')}.json`;

/** Writes ./revisions/index.ts: the list of revision files, imported statically so that the server bundle carries them. */
function indexSource(count: number): string {
  const names = Array.from({ length: count }, (_, i) => `r${revisionFileName(i + 1).slice(0, 4)}`);
  return [
    '// Written by `npx tsx server/openapi/revisions.ts --write`; one import per committed revision, oldest first.',
    ...names.map((n) => `import ${n} from './${n.slice(1)}.json';`),
    '',
    `export const revisionFiles = [${names.join(', ')}];`,
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) {
  const { writeFileSync } = await import('node:fs');
  const { buildOpenApiDocument } = await import('./document');
  const { restRoutes } = await import('../rest/routes');
  const { projectContract } = await import('./contract');
  const doc = buildOpenApiDocument(restRoutes);
  const contract = projectContract(doc);
  const all = listRevisions();
  const latest = all.at(-1);
  if (latest && JSON.stringify(latest.contract) === JSON.stringify(contract)) {
    console.log(`The contract is revision ${latest.revision} (${latest.version}); nothing to add.`);
  } else {
    const changes = latest ? classifyChanges(latest.contract, contract) : [];
    const wrong = latest ? checkVersionBump(latest.version, doc.info.version, changes) : undefined;
    if (wrong) {
      console.error(`Not written: ${wrong}. Raise info.version in server/openapi/document.ts.`);
      process.exit(1);
    }
    const revision: ContractRevision = { revision: all.length + 1, version: doc.info.version, date: new Date().toISOString().slice(0, 10), contract };
    writeFileSync(new URL(`./revisions/${revisionFileName(revision.revision)}`, import.meta.url), JSON.stringify(revision, null, 1) + '\n');
    writeFileSync(new URL('./revisions/index.ts', import.meta.url), indexSource(revision.revision));
    console.log(`Revision ${revision.revision} (${revision.version}) written: ${changes.length} change(s).`);
    for (const c of changes) console.log(`  ${c.breaking ? 'breaking' : 'compatible'} ${c.id} ${c.operation} ${c.where}`);
  }
}
