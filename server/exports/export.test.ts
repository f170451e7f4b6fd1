/**
 * Exports of the list routes (docs/product.md §5.8) on PostgreSQL, through the REST route files:
 * per persona the file holds exactly the JSON list's rows (both formats), the window is required
 * and bounded, CSV cells are escaped against formula injection, an export of more rows than one
 * page streams, and no transaction stays open between its pages.
 */
import { insertReservation } from '@/db/factories';
import { auditEvents } from '@/db/schema';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import * as auditRoute from '@/app/v1/audit/route';
import * as nodesRoute from '@/app/v1/nodes/route';
import * as reservationsRoute from '@/app/v1/reservations/route';
import * as vmsRoute from '@/app/v1/vms/route';
import { callRoute, issueKeys } from '../testing/rest';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG } from '../testing/scene';

const now = new Date();
const scene = useFreshScene(() => now);
const db = () => scene().db;
const day = 24 * 3_600_000;
const since = new Date(now.getTime() - 7 * day).toISOString();
const until = new Date(now.getTime() + day).toISOString();
const personas = [ORG.platform, ORG.owner, ORG.managing, ORG.audience, ORG.tenantA, ORG.other];
const hostile = ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', '\ry'];

beforeAll(() => {
  process.env.PLATFORM_ORG_ID = ORG.platform;
});

type Route = typeof auditRoute;
const routes: [string, Route][] = [
  ['/v1/audit', auditRoute],
  ['/v1/vms', vmsRoute],
  ['/v1/reservations', reservationsRoute],
];

/** Every item of the JSON list, paged through with its cursors. */
async function jsonList(route: Route, path: string, key: string, query: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const res = await callRoute(route.GET, { path: `${path}?${query}&limit=500${cursor ? `&cursor=${cursor}` : ''}`, key });
    expect(res.status).toBe(200);
    out.push(...(res.json.items as Record<string, unknown>[]));
    cursor = res.json.nextCursor as string | undefined;
  } while (cursor);
  return out;
}

/** 1,200 audit events around the scene's node, by several actors, some with hostile reasons. */
async function fillAudit() {
  const actors = [ORG.owner, ORG.managing, ORG.tenantA, ORG.other];
  const rows = Array.from({ length: 1200 }, (_, i) => ({
    id: `evt-${String(i).padStart(5, '0')}`,
    at: new Date(now.getTime() - (i + 1) * 60_000),
    action: 'vm.place' as const,
    actorOrgId: actors[i % actors.length]!,
    // A job acted (the table wants exactly one actor); the hostile value rides in the reason.
    actorJob: 'export-test',
    via: 'api' as const,
    nodeId: i % 3 === 0 ? 'n1' : null,
    reservationId: i % 6 === 0 ? 'r1' : null,
    unitIds: ['gpu-0', 'gpu-1'],
    reason: hostile[i % hostile.length],
    // What placing a VM records (server/audit/details.ts), numbered so that the oldest is known.
    details: { vmId: `vm-${i}`, tier: 'spot' },
  }));
  await db().insert(auditEvents).values(rows);
}

describe('an export is the JSON list, paged to the end', () => {
  it('per persona, for audit, VMs and reservations, in NDJSON and CSV', async () => {
    await fillAudit();
    const keys = await issueKeys(db(), personas);
    const query = `since=${since}&until=${until}`;
    for (const [path, route] of routes) {
      for (const org of personas) {
        const items = await jsonList(route, path, keys[org]!, query);
        const nd = await callRoute(route.GET, { path: `${path}?${query}`, key: keys[org]!, headers: { accept: 'application/x-ndjson' } });
        expect(nd.status, `${path} ${org}`).toBe(200);
        expect(nd.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
        const lines = nd.text.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(items);
        const csv = await callRoute(route.GET, { path: `${path}?${query}`, key: keys[org]!, headers: { accept: 'text/csv' } });
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
        expect(csv.headers.get('content-disposition')).toMatch(
          new RegExp(`^attachment; filename="${path.slice(4)}-\\d{8}T\\d{6}\\.\\d{3}Z-\\d{8}T\\d{6}\\.\\d{3}Z\\.csv"$`),
        );
        const records = parse(csv.text, { columns: true, relax_quotes: false }) as Record<string, string>[];
        expect(records.map((r) => r.id)).toEqual(items.map((i) => i.id));
        if (path === '/v1/audit') {
          // The tenant's own identity shows as the JSON list shows it: the same cells, empty where absent.
          expect(records.map((r) => r.actorOrgId)).toEqual(items.map((i) => i.actorOrgId ?? ''));
        }
      }
    }
    // The audit trail streamed more rows than one page for the operator.
    const all = await jsonList(auditRoute, '/v1/audit', keys[ORG.platform]!, query);
    expect(all.length).toBeGreaterThan(1000);
  });

  it('escapes cells that begin with = + - @, tab or CR (OWASP), quoting as RFC 4180 says', async () => {
    await fillAudit();
    const keys = await issueKeys(db(), [ORG.platform]);
    const csv = await callRoute(auditRoute.GET, { path: `/v1/audit?since=${since}&until=${until}`, key: keys[ORG.platform]!, headers: { accept: 'text/csv' } });
    const records = parse(csv.text, { columns: true }) as Record<string, string>[];
    const reasons = new Set(records.map((r) => r.reason));
    for (const h of hostile) expect(reasons.has(`'${h}`), JSON.stringify(h)).toBe(true);
    expect(csv.text.split('\r\n')[0]).toBe('id,at,action,actorOrgId,actorKeyId,actorKeyName,actorKeyPrefix,via,nodeId,reservationId,unitIds,reason,details');
    // Newest first: the first event written is the last record.
    const oldest = records.find((r) => r.id === 'evt-00000')!;
    expect(oldest.unitIds).toBe('gpu-0 gpu-1');
    expect(JSON.parse(oldest.details!)).toEqual({ vmId: 'vm-0', tier: 'spot' });
    expect(csv.text).toContain(`"'\ry"`);
  });
  it('escapes a reservation’s hostile contractRef and reason the same way', async () => {
    // One short reservation per hostile value, one after another on the free unit gpu-6.
    for (const [i, h] of hostile.entries()) {
      const startsAt = new Date(now.getTime() + (i + 1) * 3_600_000);
      await insertReservation(db(), {
        id: `r-hostile-${i}`,
        nodeId: 'n1',
        unitIds: ['gpu-6'],
        allowedOrgIds: [ORG.audience],
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3_000_000),
        contractRef: h,
        reason: h,
      });
    }
    const keys = await issueKeys(db(), [ORG.platform]);
    const csv = await callRoute(reservationsRoute.GET, {
      path: `/v1/reservations?role=any&since=${since}&until=${until}`,
      key: keys[ORG.platform]!,
      headers: { accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    const records = parse(csv.text, { columns: true }) as Record<string, string>[];
    for (const [i, h] of hostile.entries()) {
      const r = records.find((x) => x.id === `r-hostile-${i}`);
      expect(r, JSON.stringify(h)).toMatchObject({ contractRef: `'${h}`, reason: `'${h}` });
    }
  });
});

describe('what an export refuses', () => {
  it('needs since and until at most 31 days apart, no cursor or limit; 406 for an Accept it cannot give', async () => {
    const keys = await issueKeys(db(), [ORG.owner]);
    const key = keys[ORG.owner]!;
    const csv = { accept: 'text/csv' };
    const errorPath = async (path: string, headers = csv) => {
      const res = await callRoute(vmsRoute.GET, { path, key, headers });
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      return [res.status, (res.json.errors as { path: string }[] | undefined)?.[0]?.path];
    };
    expect(await errorPath('/v1/vms')).toEqual([400, 'query.since']);
    expect(await errorPath(`/v1/vms?since=${since}`)).toEqual([400, 'query.until']);
    expect(await errorPath(`/v1/vms?since=${until}&until=${since}`)).toEqual([400, 'query.until']);
    expect(await errorPath(`/v1/vms?since=2026-01-01T00:00:00.000Z&until=2026-02-01T00:00:00.001Z`)).toEqual([400, 'query.until']);
    expect(await errorPath(`/v1/vms?since=${since}&until=${until}&limit=5`)).toEqual([400, 'query.limit']);
    expect(await errorPath(`/v1/vms?since=${since}&until=${until}`, { accept: 'image/png' })).toEqual([406, undefined]);
    // A route that declares no export cannot give CSV.
    expect((await callRoute(nodesRoute.GET, { path: '/v1/nodes', key, headers: csv })).status).toBe(406);
    // 31 days exactly is allowed; JSON stays the default for */* and no Accept.
    const ok = await callRoute(vmsRoute.GET, { path: `/v1/vms?since=2026-01-01T00:00:00.000Z&until=2026-02-01T00:00:00.000Z`, key, headers: csv });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-disposition')).toBe('attachment; filename="vms-20260101T000000Z-20260201T000000Z.csv"');
    for (const accept of ['*/*', '']) {
      const res = await callRoute(vmsRoute.GET, { path: '/v1/vms', key, headers: accept ? { accept } : {} });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});

describe('streaming', () => {
  it('reads page by page, holding no transaction open between pages, and stops when the client goes away', async () => {
    await fillAudit();
    const keys = await issueKeys(db(), [ORG.platform]);
    const req = new Request(`http://localhost/v1/audit?since=${since}&until=${until}`, {
      headers: { authorization: `Bearer ${keys[ORG.platform]!}`, accept: 'application/x-ndjson' },
    });
    const res = await auditRoute.GET(req, { params: Promise.resolve({}) });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).split('\n').length - 1).toBe(500);
    const open = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
    );
    expect(open[0]!.n).toBe(0);
    await reader.cancel();
    const done = await reader.read();
    expect(done.done).toBe(true);
  });
});
