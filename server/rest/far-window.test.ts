/**
 * A window whose default end would fall past year 9999 (`from` alone near 9999-12-31: timeline
 * +14 d, calendar +7 d) stops at the last instant a four-digit year names (server/timestamp.ts
 * `laterBy`) instead of reaching PostgreSQL as `+010000-…`, which it cannot parse (a 500).
 */
import * as timelineRoute from '@/app/v1/nodes/[nodeId]/timeline/route';
import * as calendarRoute from '@/app/v1/reservation-calendar/route';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { callRoute, issueKeys } from '../testing/rest';
import { ORG } from '../testing/scene';

const scene = useFreshScene();

describe('a far-future window', () => {
  it('GET /v1/nodes/{nodeId}/timeline?from=9999-12-31… is a 4xx or a clamped 200, never 500', async () => {
    process.env.DATABASE_URL = scene().url;
    const keys = await issueKeys(scene().db, [ORG.owner]);
    const res = await callRoute(timelineRoute.GET, {
      path: '/v1/nodes/n1/timeline?from=9999-12-31T00:00:00.000Z',
      params: { nodeId: 'n1' },
      key: keys[ORG.owner],
    });
    expect(res.status, res.text).toBeLessThan(500);
  });

  it('GET /v1/reservation-calendar?from=9999-12-31… is a 4xx or a clamped 200, never 500', async () => {
    process.env.DATABASE_URL = scene().url;
    const keys = await issueKeys(scene().db, [ORG.owner]);
    const res = await callRoute(calendarRoute.GET, { path: '/v1/reservation-calendar?from=9999-12-31T00:00:00.000Z', key: keys[ORG.owner] });
    expect(res.status, res.text).toBeLessThan(500);
  });
});
