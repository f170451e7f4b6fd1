/**
 * What the API reference hands Redoc (docs/product.md §5 "The reference"), shared by its server
 * rendering (./redoc.ts) and its hydration in the browser
 * (components/api-reference/redoc-hydrate.tsx): both must render the same document with the same
 * options, or the browser's render would not match the server's. Pure: the browser loads it.
 */
import type { listOperationHistory } from './revisions';

/**
 * Redoc's options: no search (it would start a web worker from a blob, which the CSP refuses, and
 * the menu lists every operation), the browser's own scrollbars, successful answers expanded,
 * and the download link pointing at the served document. Its theme's colors where its defaults
 * fail WCAG's 4.5:1 contrast (docs/product.md §8 R7; axe counted some 2,000 such elements): inline
 * code (red on a light tint, 3.5:1), secondary text (the section headings, 2.9:1) and the error
 * answers' tabs on the dark panel (3.5:1); links underlined, since in running text their color
 * alone does not set them apart.
 */
export const redocOptions = {
  disableSearch: true,
  nativeScrollbars: true,
  hideHostname: true,
  expandResponses: '200,201,202,204',
  jsonSampleExpandLevel: 3,
  downloadDefinitionUrl: '/v1/openapi.json',
  theme: {
    colors: { text: { secondary: '#5c6366' }, responses: { error: { tabTextColor: '#ff7b72' } } },
    typography: {
      fontFamily: 'system-ui, sans-serif',
      headings: { fontFamily: 'system-ui, sans-serif' },
      code: { fontFamily: 'ui-monospace, monospace', color: '#a4241f' },
      links: { textDecoration: 'underline' },
    },
  },
} as const;

/** One operation's history (./revisions.ts). */
type OperationHistory = ReturnType<typeof listOperationHistory>;

/** Each operation's history, by `METHOD path`, and how many revisions there are. */
export type ReferenceHistory = { operations: Record<string, OperationHistory>; revisions: number };

type OperationLike = { description?: string };
type DocumentLike = { paths?: object };

/** "Changes": an operation's history as Markdown, linked to the changelog (docs/product.md §5 "Revisions and the changelog"). */
function historyMarkdown(history: OperationHistory, revisions: number): string {
  const since = history.since
    ? `; present since [revision ${history.since.revision} (${history.since.version}, ${history.since.date})](/docs/api/changelog#revision-${history.since.revision})`
    : '';
  const lines = [`**Changes.** Changed in ${history.changed.length} of the ${revisions} revision${revisions === 1 ? '' : 's'} of this API${since}.`];
  for (const entry of history.changed) {
    lines.push('', `[Revision ${entry.revision} (${entry.version}, ${entry.date})](/docs/api/changelog#revision-${entry.revision}):`, '');
    for (const c of entry.changes) lines.push(`- ${c.breaking ? '**breaking**' : 'compatible'}: ${c.text} \`${c.where}\` (\`${c.id}\`)`);
  }
  return lines.join('\n');
}

/**
 * The served document with each operation's history after its description: what the reference
 * renders. A copy; the served document itself is unchanged (the reclaim's description stays the
 * published contract's, word for word).
 */
export function withHistory<D extends DocumentLike>(doc: D, history: ReferenceHistory): D {
  const paths = Object.fromEntries(
    Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>).map(([path, item]) => [
      path,
      item &&
        Object.fromEntries(
          Object.entries(item).map(([method, op]) => {
            // A path item's other keys (`parameters`, `summary`) name no operation: no history.
            const h = history.operations[`${method.toUpperCase()} ${path}`];
            if (!h) return [method, op];
            const o = op as OperationLike;
            return [method, { ...o, description: `${o.description ? `${o.description}\n\n` : ''}${historyMarkdown(h, history.revisions)}` }];
          }),
        ),
    ]),
  );
  return { ...doc, paths };
}
