/**
 * The export form's 303 back to its page (docs/product.md §5.8 "Exports"): a page with its own
 * since/until (the audit trail's filters) gets them back as they came, so it reloads filtered and
 * says "narrow the page's Since–Until window"; a day that does not exist (2026-11-31) is refused,
 * never rolled over into another window.
 */
import { describe, expect, it, vi } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG } from '../testing/scene';

vi.mock('../auth/console-principal', () => ({
  getConsoleSession: async () => ({
    principal: { orgId: 'org_owner', actor: { kind: 'apiKey', apiKeyId: 'key_review' }, via: 'console' },
    sessionId: 's',
    user: { id: 'u', email: 'u@example.com', name: 'U' },
    orgs: [{ id: 'org_owner', name: 'Owner' }],
  }),
}));

const scene = useFreshScene();

describe('the export form’s 303 back to its page', () => {
  it("keeps the page's own since/until filters when the page had them (ownWindow)", async () => {
    process.env.DATABASE_URL = scene().url;
    const { consoleExportRoute } = await import('../exports/console-route');
    const GET = consoleExportRoute('/v1/audit', '/audit');
    // The audit page filtered to 60 days: its form sends the page's since/until as they are.
    const since = '2026-01-01T00:00:00.000Z';
    const until = '2026-03-02T00:00:00.000Z';
    const res = await GET(
      new Request(`http://localhost/exports/audit?action=reservation.create&since=${since}&until=${until}&format=csv`, {
        headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document' },
      }),
    );
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, 'http://localhost');
    expect(back.searchParams.get('exportError')).toBe('window-too-long');
    expect(back.searchParams.get('action')).toBe('reservation.create');
    // The page's filters come back as the page's filters (docs/product.md §5.8 Exports).
    expect(back.searchParams.get('since')).toBe(since);
    expect(back.searchParams.get('until')).toBe(until);
    void ORG;
  });

  it('refuses a day that does not exist (2026-11-31) instead of exporting another window', async () => {
    process.env.DATABASE_URL = scene().url;
    const { consoleExportRoute } = await import('../exports/console-route');
    const GET = consoleExportRoute('/v1/audit', '/audit');
    // new Date('2026-11-31T00:00:00.000Z') is 2026-12-01 in V8: the download silently covers 12-01…12-02.
    const res = await GET(
      new Request('http://localhost/exports/audit?since=2026-11-31&until=2026-12-01&format=csv', { headers: { 'sec-fetch-site': 'same-origin' } }),
    );
    expect(res.status, res.headers.get('content-disposition') ?? '').toBe(400);
  });
});
