import { describe, expect, it } from 'vitest';
import { renderReference } from './redoc';
import { getServedDocument, readReferenceHistory } from './reference';

const RECLAIM_PATH = '/v1/nodes/{nodeId}/reservations/{id}/reclaim';

// docs/product.md §5 "The reference": Redoc renders the served document, each operation with its history.
describe('the API reference (Redoc)', () => {
  it('renders every operation of the served document on the server, the reclaim with its history; the served document is left as it is', async () => {
    const doc = getServedDocument();
    const reclaimBefore = JSON.stringify(doc.paths?.[RECLAIM_PATH]);
    const { html, css } = await renderReference();

    const ids = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item ?? {}).map((op) => (op as { operationId: string }).operationId));
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) expect(html, id).toContain(`id="operation/${id}"`);
    // One history per operation of the route table, the reclaim's among them.
    expect(Object.keys(readReferenceHistory().operations)).toHaveLength(ids.length);
    expect(html).toMatch(/Changed in \d+ of the \d+ revisions? of this API; present since <a href="\/docs\/api\/changelog#revision-1">revision 1 \(1\.0\.0/);
    expect(css.length).toBeGreaterThan(10_000); // the rules of Redoc's styled components
    // Nothing the page would fetch from elsewhere.
    expect(html).not.toMatch(/<(img|script|link)\b/);
    // withHistory copies: the served reclaim keeps the published contract's description.
    expect(JSON.stringify(doc.paths?.[RECLAIM_PATH])).toBe(reclaimBefore);
    expect(reclaimBefore).not.toContain('Changed in');
  }, 60_000);
});
