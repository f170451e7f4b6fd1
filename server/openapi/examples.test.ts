import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFleet } from '../demo';
import type { RestExample } from '../operation';
import { routeHandlers } from '../rest/routes';
import { callRoute } from '../testing/rest';
import examples from './examples.json';

// The reclaim's examples in the document (docs/product.md §5.1a) are the demo fleet's README
// flow: played again here on a freshly seeded demo fleet, they answer exactly what the document
// shows, but for the times (the fleet is seeded relative to now).
let tdb: TestDatabase;
let keys: Record<string, string>;
beforeAll(async () => {
  tdb = await createTestDatabase();
  keys = await seedDemoFleet(tdb.db, new Date());
});
afterAll(async () => tdb?.close());

const TIMES = new Set(['startsAt', 'endsAt', 'createdAt', 'updatedAt']);
/** An answer with its times replaced by their kind, so that two runs of the same story compare equal. */
const timeless = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, TIMES.has(k) && typeof v === 'string' ? 'time' : v]));

describe('the reclaim examples of the document', () => {
  it('answer on the demo fleet what the document shows: the dry run, then the reclaim of what it showed', async () => {
    const reclaim = (examples as Record<string, Record<string, RestExample<Record<string, unknown>>>>).reclaimUnits!;
    const { POST } = routeHandlers('/v1/nodes/{nodeId}/reservations/{id}/reclaim');
    for (const name of ['dryRun', 'reclaim']) {
      const e = reclaim[name]!;
      const res = await callRoute(POST, {
        method: 'POST',
        path: `/v1/nodes/${e.params!.nodeId}/reservations/${e.params!.id}/reclaim`,
        params: e.params,
        key: keys.org_helix,
        body: e.body,
      });
      expect(res.status, res.text).toBe(200);
      expect(timeless(res.json), name).toEqual(timeless(e.response));
    }
  });
});
