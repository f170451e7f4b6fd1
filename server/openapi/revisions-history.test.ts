import { describe, expect, it, vi } from 'vitest';
import r0001 from './revisions/0001.json';

const RECLAIM = 'POST /v1/nodes/{nodeId}/reservations/{id}/reclaim';

// Three revisions: the committed first, a second that adds an optional field to the reclaim's
// request (1.1.0), a third that removes an operation (2.0.0).
vi.mock('./revisions/index', async () => {
  const first = (await import('./revisions/0001.json')).default;
  const second = structuredClone(first);
  const body = second.contract.operations[RECLAIM].requestBody.content['application/json'].schema.properties as Record<string, unknown>;
  body.note = { type: 'string' };
  const third = structuredClone(second);
  delete (third.contract.operations as Record<string, unknown>)['GET /v1/orgs'];
  return {
    revisionFiles: [first, { ...second, revision: 2, version: '1.1.0', date: '2026-12-08' }, { ...third, revision: 3, version: '2.0.0', date: '2026-12-09' }],
  };
});

describe('an operation’s history over several revisions (docs/product.md §5 "Revisions and the changelog")', () => {
  it('the changelog lists each revision newest first with its classified changes; the reclaim shows the one that changed it', async () => {
    const { listChangelog, listOperationHistory } = await import('./revisions');
    const log = listChangelog();
    expect(log.map((e) => [e.revision, e.version, e.changes.map((c) => `${c.id} ${c.breaking}`)])).toEqual([
      [3, '2.0.0', ['api-removed-without-deprecation true']],
      [2, '1.1.0', ['new-optional-request-property false']],
      [1, '1.0.0', []],
    ]);
    const history = listOperationHistory(RECLAIM);
    expect(history.since?.revision).toBe(r0001.revision);
    expect(history.changed.map((e) => [e.revision, e.changes.map((c) => c.where)])).toEqual([[2, ['note']]]);
    expect(listOperationHistory('GET /v1/orgs').changed.map((e) => e.revision)).toEqual([3]);
  });
});
