/**
 * Each operation lists exactly the problem codes it can answer (docs/product.md §5 Errors), tested
 * both ways. Every answer a REST test receives is judged against the document
 * (server/testing/rest.ts `callRoute`, e2e/support/api.ts): one with a code its operation does not
 * list fails there. And here every code each operation lists is produced, on the demo fleet: the
 * pipeline's by a request per operation (an unknown field, an `Accept` it cannot give, no key, a
 * spent budget, a path id that is no id, an oversized or mistyped body, an `Idempotency-Key` in
 * flight or reused, a verb that fails or loses its database), the verbs' by the cases below — a
 * listed code nobody produces, or a case of an unlisted one, fails.
 */
import { issueApiKey } from '../api-keys/internal';
import { apiKeyScopes } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoFleet } from '../demo';
import type { ErrorCode } from '../errors';
import { restRoute } from '../rest/route';
import type { RouteSpec } from '../rest/route-spec';
import { routeHandlers, restRoutes } from '../rest/routes';
import { callRoute } from '../testing/rest';
import { operationErrorCodes } from './document';
import examples from './examples.json';
import type { RestExample } from '../operation';

type Org = 'platform' | 'acme' | 'borealis' | 'helix' | 'nimbus' | 'orbit' | 'quark' | 'zephyr';
type Case = { as: Org; params?: Record<string, string>; query?: Record<string, string>; body?: unknown };

let tdb: TestDatabase;
let keys: Record<string, string>;
const key = (org: Org) => keys[`org_${org}`]!;
const later = (ms: number) => new Date(Date.now() + ms).toISOString();
const HOUR = 3_600_000;
const nimbus02 = { nodeId: 'acme-h100-02', id: 'res-nimbus-02' };
const nimbus01 = { nodeId: 'acme-h100-01', id: 'res-nimbus-01' };
const review = { nodeId: 'acme-h100-01', id: 'res-nimbus-01-review' };
const expired = { nodeId: 'acme-h100-01', id: 'res-quark-01-expired' };
const cancelled = { nodeId: 'acme-h100-01', id: 'res-orbit-01-cancelled' };
const missing = { nodeId: 'acme-h100-02', id: 'res-missing' };
const far = { startsAt: '2200-01-01T00:00:00.000Z', endsAt: '2200-02-01T00:00:00.000Z' };
/** Scheduled reclaims the setup leaves: one pending, one cancelled, one lapsed with its reservation cancelled. */
const schedules = { pending: '', cancelled: '', lapsed: '' };

/** Sends one request to a route of the table, as `org`. */
async function send(template: string, method: string, c: Case, headers: Record<string, string> = {}) {
  const path = template.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(c.params![p]!));
  const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
  return callRoute(routeHandlers(template as RouteSpec['path'])[method as 'GET'], {
    method,
    path: path + query,
    params: c.params,
    key: key(c.as),
    headers,
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
}

/** The verbs' own codes: one request each, on the demo fleet as the setup below leaves it. */
// One case per line, read as a table.
// prettier-ignore
const domainCases: Record<string, Partial<Record<ErrorCode, () => Case>>> = {
  registerNode: {
    forbidden: () => ({ as: 'acme', body: { id: 'x-1', name: 'X', ownerOrgId: 'org_acme', units: [{ id: 'gpu-0' }] } }),
    already_exists: () => ({ as: 'platform', body: { id: 'acme-h100-01', name: 'X', ownerOrgId: 'org_acme', units: [{ id: 'gpu-0' }] } }),
    unknown_org: () => ({ as: 'platform', body: { id: 'x-2', name: 'X', ownerOrgId: 'org_nope', units: [{ id: 'gpu-0' }] } }),
  },
  getNode: { not_found: () => ({ as: 'acme', params: { nodeId: 'nope' } }) },
  getUnit: { not_found: () => ({ as: 'acme', params: { nodeId: 'acme-h100-01', unitId: 'gpu-99' } }) },
  changeTopology: {
    not_found: () => ({ as: 'platform', params: { nodeId: 'nope' }, body: { units: [{ id: 'gpu-0' }] } }),
    forbidden: () => ({ as: 'acme', params: { nodeId: 'acme-h100-01' }, body: { units: [{ id: 'gpu-0' }] } }),
    topology_changed: () => ({ as: 'platform', params: { nodeId: 'acme-h100-01' }, body: { units: [{ id: 'gpu-0' }], expectedTopologyGen: 1 } }),
    unit_occupied: () => ({ as: 'platform', params: { nodeId: 'acme-h100-02' }, body: { units: [1, 2, 3, 4, 5, 6, 7].map((i) => ({ id: `gpu-${i}` })) } }),
  },
  getNodeTimeline: { not_found: () => ({ as: 'acme', params: { nodeId: 'nope' } }) },
  listNodeReservations: { not_found: () => ({ as: 'acme', params: { nodeId: 'nope' } }) },
  createReservation: {
    not_found: () => ({ as: 'acme', params: { nodeId: 'nope' }, body: { reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'], ...far } }),
    forbidden: () => ({ as: 'helix', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'], ...far } }),
    already_exists: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { id: 'res-nimbus-02', reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'], ...far } }),
    unit_occupied: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-0'], allowedOrgIds: ['org_nimbus'] } }),
    reservation_overlap: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'] } }),
    start_in_past: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'], startsAt: later(-HOUR) } }),
    unknown_unit: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-99'], allowedOrgIds: ['org_nimbus'], ...far } }),
    unknown_org: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nope'], ...far } }),
  },
  getReservation: { not_found: () => ({ as: 'acme', params: missing }) },
  updateReservation: {
    not_found: () => ({ as: 'acme', params: missing, body: { reason: 'x' } }),
    forbidden: () => ({ as: 'helix', params: nimbus02, body: { reason: 'x' } }),
    reservation_not_active: () => ({ as: 'acme', params: expired, body: { reason: 'x' } }),
    unit_occupied: () => ({ as: 'acme', params: nimbus02, body: { reservedUnitIds: [0, 1, 2, 3, 4, 5, 7].map((i) => `gpu-${i}`) } }),
    reservation_overlap: () => ({ as: 'acme', params: { nodeId: 'acme-h100-02', id: 'res-early' }, body: { endsAt: '2100-03-15T00:00:00.000Z' } }),
    unit_not_in_reservation: () => ({ as: 'acme', params: nimbus01, body: { reservedUnitIds: ['gpu-0', 'gpu-7'] } }),
    unknown_org: () => ({ as: 'acme', params: nimbus02, body: { allowedOrgIds: ['org_nope'] } }),
  },
  cancelReservation: {
    not_found: () => ({ as: 'acme', params: missing, body: {} }),
    forbidden: () => ({ as: 'helix', params: nimbus02, body: {} }),
    reservation_not_active: () => ({ as: 'acme', params: cancelled, body: {} }),
  },
  releaseUnits: {
    not_found: () => ({ as: 'helix', params: missing, body: { unitIds: ['gpu-7'] } }),
    forbidden: () => ({ as: 'nimbus', params: nimbus02, body: { unitIds: ['gpu-7'] } }),
    reservation_not_active: () => ({ as: 'acme', params: expired, body: { unitIds: ['gpu-0'] } }),
    reservation_needs_review: () => ({ as: 'acme', params: review, body: { unitIds: ['gpu-6'] } }),
    unit_occupied: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-6'] } }),
    unit_not_in_reservation: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-99'] } }),
  },
  reclaimUnits: {
    not_found: () => ({ as: 'helix', params: missing, body: { unitIds: ['gpu-0'] } }),
    forbidden: () => ({ as: 'nimbus', params: nimbus02, body: { unitIds: ['gpu-0'], dryRun: true } }),
    reservation_not_reclaimable: () => ({ as: 'acme', params: expired, body: { unitIds: ['gpu-0'] } }),
    eviction_set_changed: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-0'], expectedTerminate: [] } }),
    unit_not_in_reservation: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-99'] } }),
  },
  planReclaim: {
    not_found: () => ({ as: 'helix', params: missing, body: { count: 1 } }),
    forbidden: () => ({ as: 'nimbus', params: nimbus02, body: { count: 1 } }),
    reservation_not_reclaimable: () => ({ as: 'acme', params: expired, body: { count: 1 } }),
    unit_not_in_reservation: () => ({ as: 'helix', params: nimbus02, body: { count: 1, unitIds: ['gpu-99'] } }),
    not_enough_units: () => ({ as: 'helix', params: nimbus02, body: { count: 1024 } }),
  },
  reaffirmReservation: {
    not_found: () => ({ as: 'platform', params: missing, body: {} }),
    forbidden: () => ({ as: 'acme', params: review, body: {} }),
    reservation_not_active: () => ({ as: 'platform', params: cancelled, body: {} }),
    topology_changed: () => ({ as: 'platform', params: review, body: { expectedTopologyGen: 1 } }),
    unit_missing: () => ({ as: 'platform', params: { nodeId: 'pc-shrunk', id: 'res-shrunk' }, body: {} }),
  },
  listScheduledReclaims: {
    not_found: () => ({ as: 'helix', params: missing }),
    forbidden: () => ({ as: 'nimbus', params: nimbus02 }),
  },
  scheduleReclaim: {
    not_found: () => ({ as: 'helix', params: missing, body: { unitIds: ['gpu-5'], at: later(HOUR) } }),
    forbidden: () => ({ as: 'nimbus', params: nimbus02, body: { unitIds: ['gpu-5'], at: later(HOUR) } }),
    reservation_not_reclaimable: () => ({ as: 'acme', params: expired, body: { unitIds: ['gpu-0'], at: later(HOUR) } }),
    unit_not_in_reservation: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-99'], at: later(HOUR) } }),
    invalid_schedule_time: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-4'], at: later(-HOUR) } }),
    already_scheduled: () => ({ as: 'helix', params: nimbus02, body: { unitIds: ['gpu-5'], at: later(HOUR) } }),
  },
  getScheduledReclaim: {
    not_found: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: 'rcs-missing' } }),
    forbidden: () => ({ as: 'nimbus', params: { ...nimbus02, scheduleId: schedules.pending } }),
  },
  rescheduleReclaim: {
    not_found: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: 'rcs-missing' }, body: { at: later(HOUR) } }),
    forbidden: () => ({ as: 'nimbus', params: { ...nimbus02, scheduleId: schedules.pending }, body: { at: later(HOUR) } }),
    reservation_not_reclaimable: () => ({ as: 'acme', params: { nodeId: 'pc-lapsed', id: 'res-lapsed', scheduleId: schedules.lapsed }, body: { at: later(HOUR) } }),
    schedule_not_pending: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: schedules.cancelled }, body: { at: later(HOUR) } }),
    invalid_schedule_time: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: schedules.pending }, body: { at: later(-HOUR) } }),
  },
  cancelScheduledReclaim: {
    not_found: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: 'rcs-missing' }, body: {} }),
    forbidden: () => ({ as: 'nimbus', params: { ...nimbus02, scheduleId: schedules.pending }, body: {} }),
    reservation_not_reclaimable: () => ({ as: 'acme', params: { nodeId: 'pc-lapsed', id: 'res-lapsed', scheduleId: schedules.lapsed }, body: {} }),
    schedule_not_pending: () => ({ as: 'helix', params: { ...nimbus02, scheduleId: schedules.cancelled }, body: {} }),
  },
  placeVm: {
    not_found: () => ({ as: 'orbit', body: { nodeId: 'nope', unitIds: ['gpu-0'], tier: 'spot' } }),
    forbidden: () => ({ as: 'platform', body: { nodeId: 'acme-h100-02', unitIds: ['gpu-7'], tier: 'reserved', reservationId: 'res-nimbus-02' } }),
    reservation_not_active: () => ({ as: 'quark', body: { nodeId: 'acme-h100-01', unitIds: ['gpu-0'], tier: 'reserved', reservationId: 'res-quark-01-expired' } }),
    reservation_needs_review: () => ({ as: 'nimbus', body: { nodeId: 'acme-h100-01', unitIds: ['gpu-6'], tier: 'reserved', reservationId: 'res-nimbus-01-review' } }),
    unit_occupied: () => ({ as: 'orbit', body: { nodeId: 'acme-h100-02', unitIds: ['gpu-0'], tier: 'spot' } }),
    unit_unavailable: () => ({ as: 'orbit', body: { nodeId: 'acme-h100-02', unitIds: ['gpu-7'], tier: 'spot' } }),
    unknown_unit: () => ({ as: 'orbit', body: { nodeId: 'acme-h100-02', unitIds: ['gpu-99'], tier: 'spot' } }),
  },
  getVm: { not_found: () => ({ as: 'orbit', params: { id: 'vm-missing' } }) },
  terminateVm: {
    not_found: () => ({ as: 'orbit', params: { id: 'vm-missing' }, body: {} }),
    forbidden: () => ({ as: 'acme', params: { id: 'vm-orbit-train-02' }, body: {} }),
  },
  markNotificationRead: { not_found: () => ({ as: 'orbit', params: { id: 'ntf-missing' }, body: {} }) },
  createApiKey: { limit_reached: () => ({ as: 'zephyr', body: { name: 'one too many' } }) },
  revokeApiKey: { not_found: () => ({ as: 'helix', params: { id: 'key-missing' }, body: {} }) },
  searchOrgs: { forbidden: () => ({ as: 'helix', query: { q: 'nim' } }) },
  listEvents: {
    cursor_expired: () => ({ as: 'helix', query: { after: Buffer.from(JSON.stringify({ x: 0, s: 0, t: Date.now() - 40 * 86_400_000 })).toString('base64url') } }),
  },
  createWebhook: { limit_reached: () => ({ as: 'borealis', body: { url: 'https://hooks.borealis.example/21' } }) },
  getWebhook: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' } }) },
  updateWebhook: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' }, body: { enabled: false } }) },
  deleteWebhook: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' }, body: {} }) },
  rotateWebhookSecret: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' }, body: {} }) },
  listWebhookAttempts: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' } }) },
  redeliverWebhook: { not_found: () => ({ as: 'helix', params: { id: 'wh-missing' }, body: { eventId: 'ev-missing' } }) },
  getReservationUtilisation: { not_found: () => ({ as: 'helix', params: missing }) },
};

beforeAll(async () => {
  process.env.PLATFORM_ORG_ID = 'org_platform';
  tdb = await createTestDatabase();
  keys = await seedDemoFleet(tdb.db, new Date());
  const ok = async (template: string, method: string, c: Case, status = 200) => {
    const res = await send(template, method, c);
    expect(res.status, `setup ${method} ${template}: ${res.text}`).toBe(status);
    return res.json;
  };
  // Two reservations of one unit, far ahead, for an edit that would make them overlap.
  for (const [id, startsAt, endsAt] of [
    ['res-early', '2100-01-01T00:00:00.000Z', '2100-02-01T00:00:00.000Z'],
    ['res-late', '2100-03-01T00:00:00.000Z', '2100-04-01T00:00:00.000Z'],
  ]) {
    await ok(
      '/v1/nodes/{nodeId}/reservations',
      'POST',
      { as: 'acme', params: { nodeId: 'acme-h100-02' }, body: { id, reservedUnitIds: ['gpu-7'], allowedOrgIds: ['org_nimbus'], startsAt, endsAt } },
      201,
    );
  }
  // A reservation whose unit left the node's topology: needs review, with a unit missing.
  await ok(
    '/v1/nodes',
    'POST',
    { as: 'platform', body: { id: 'pc-shrunk', name: 'Shrunk', ownerOrgId: 'org_acme', units: [{ id: 'gpu-0' }, { id: 'gpu-1' }] } },
    201,
  );
  await ok(
    '/v1/nodes/{nodeId}/reservations',
    'POST',
    { as: 'acme', params: { nodeId: 'pc-shrunk' }, body: { id: 'res-shrunk', reservedUnitIds: ['gpu-0', 'gpu-1'], allowedOrgIds: ['org_nimbus'] } },
    201,
  );
  await ok('/v1/nodes/{nodeId}/topology', 'PUT', { as: 'platform', params: { nodeId: 'pc-shrunk' }, body: { units: [{ id: 'gpu-0' }] } });
  // Scheduled reclaims: one pending (gpu-5), one cancelled (gpu-4), one lapsed with its reservation cancelled.
  schedules.pending = String(
    (
      await ok(
        '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims',
        'POST',
        { as: 'helix', params: nimbus02, body: { unitIds: ['gpu-5'], at: later(2 * HOUR) } },
        201,
      )
    ).id,
  );
  schedules.cancelled = String(
    (
      await ok(
        '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims',
        'POST',
        { as: 'helix', params: nimbus02, body: { unitIds: ['gpu-4'], at: later(3 * HOUR) } },
        201,
      )
    ).id,
  );
  await ok('/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}', 'DELETE', {
    as: 'helix',
    params: { ...nimbus02, scheduleId: schedules.cancelled },
    body: {},
  });
  await ok('/v1/nodes', 'POST', { as: 'platform', body: { id: 'pc-lapsed', name: 'Lapsed', ownerOrgId: 'org_acme', units: [{ id: 'gpu-0' }] } }, 201);
  const lapsed = { nodeId: 'pc-lapsed', id: 'res-lapsed' };
  await ok(
    '/v1/nodes/{nodeId}/reservations',
    'POST',
    {
      as: 'acme',
      params: { nodeId: 'pc-lapsed' },
      body: { id: 'res-lapsed', reservedUnitIds: ['gpu-0'], allowedOrgIds: ['org_nimbus'], endsAt: later(10 * 86_400_000) },
    },
    201,
  );
  await ok('/v1/nodes/{nodeId}/reservations/{id}/release', 'POST', { as: 'acme', params: lapsed, body: { unitIds: ['gpu-0'] } });
  schedules.lapsed = String(
    (
      await ok(
        '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims',
        'POST',
        { as: 'acme', params: lapsed, body: { unitIds: ['gpu-0'], at: later(HOUR) } },
        201,
      )
    ).id,
  );
  await ok('/v1/nodes/{nodeId}/reservations/{id}/cancel', 'POST', { as: 'acme', params: lapsed, body: {} });
  // An org at its 100 active API keys, and one at its 20 webhook endpoints.
  for (let i = 0; i < 99; i++) await issueApiKey(tdb.db, { orgId: 'org_zephyr', name: `k${i}`, now: new Date() });
  for (let i = 0; i < 20; i++) await ok('/v1/webhooks', 'POST', { as: 'borealis', body: { url: `https://hooks.borealis.example/${i}` } }, 201);
}, 120_000);
afterAll(async () => tdb?.close());

const exampleOf = (r: RouteSpec) => Object.values((examples as Record<string, Record<string, RestExample<unknown>>>)[r.operationId]!)[0]!;

/** A route's handler whose verb changes nothing and answers the route's example (what the document shows). */
function standIn(r: RouteSpec) {
  return restRoute({ [r.method]: { ...r, run: async () => exampleOf(r).response } })[r.method as 'GET'];
}

/** A request of the route that passes validation: its example (server/openapi/examples.json). */
function validRequest(r: RouteSpec): Case {
  const e = exampleOf(r);
  return {
    as: 'platform',
    params: e.params,
    query: e.query ? Object.fromEntries(Object.entries(e.query).map(([k, v]) => [k, String(v)])) : undefined,
    body: e.body ?? (r.body ? {} : undefined),
  };
}

/** A route's handler whose verb fails as `fail` says, for the 500 and the 503 (the pipeline's answers to a bug and to a lost database). */
function failingHandler(r: RouteSpec, fail: () => never) {
  return restRoute({ [r.method]: { ...r, run: async () => fail() } })[r.method as 'GET'];
}

/** Produces one of the pipeline's codes on `r`: the answer, or null for a code the pipeline does not give. */
async function pipelineCase(r: RouteSpec, code: ErrorCode) {
  const v = validRequest(r);
  const path = r.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(v.params![p]!)) + (v.query ? `?${new URLSearchParams(v.query)}` : '');
  const call = (
    opts: { key?: string | undefined; headers?: Record<string, string>; body?: unknown; rawBody?: string; method?: string; path?: string },
    fn = routeHandlers(r.path)[r.method as 'GET'],
  ) => callRoute(fn, { method: r.method, path, params: v.params, ...(v.body !== undefined ? { body: v.body } : {}), ...opts });
  const asPlatform = r.auth === 'none' ? undefined : key('platform');
  switch (code) {
    case 'invalid_request':
      return r.method === 'GET'
        ? call({ key: asPlatform, path: `${path}${path.includes('?') ? '&' : '?'}unknownField=1` })
        : call({ key: asPlatform, body: { ...(v.body as object), unknownField: 1 } });
    case 'not_acceptable':
      return call({ key: asPlatform, headers: { accept: 'image/png' } });
    case 'internal_error': {
      // The pipeline logs a bug's cause; this one is on purpose.
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        return await call(
          { key: asPlatform },
          failingHandler(r, () => {
            throw new Error('a bug');
          }),
        );
      } finally {
        log.mockRestore();
      }
    }
    case 'service_unavailable': {
      const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        return await call(
          { key: asPlatform },
          failingHandler(r, () => {
            throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
          }),
        );
      } finally {
        log.mockRestore();
      }
    }
    case 'method_not_allowed': {
      const other = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !restRoutes.some((x) => x.path === r.path && x.method === m))!;
      return call({ key: asPlatform, method: other, ...(other === 'GET' ? { body: undefined } : {}) }, routeHandlers(r.path)[other as 'GET']);
    }
    case 'unauthenticated':
      return call({ key: undefined });
    case 'rate_limited': {
      // A key of its own, and a budget of one request a minute: the second is refused. The first
      // is refused too (406), so that it changes nothing, but it counts.
      const own = (await issueApiKey(tdb.db, { orgId: 'org_platform', name: `budget ${r.operationId}`, now: new Date() })).secret;
      process.env.RATE_LIMIT_PER_MINUTE = '1';
      try {
        await call({ key: own, headers: { accept: 'image/png' } });
        return await call({ key: own });
      } finally {
        delete process.env.RATE_LIMIT_PER_MINUTE;
      }
    }
    case 'insufficient_scope': {
      // A key of the platform holding every scope but the one the operation needs.
      const lacking = apiKeyScopes.filter((s) => s !== r.scope);
      const own = (await issueApiKey(tdb.db, { orgId: 'org_platform', name: `scoped ${r.operationId}`, now: new Date(), scopes: lacking })).secret;
      return call({ key: own });
    }
    case 'not_found':
      if (!r.params) return null;
      return callRoute(routeHandlers(r.path)[r.method as 'GET'], {
        method: r.method,
        path: r.path.replace(/\{(\w+)\}/g, '-not-an-id'),
        params: Object.fromEntries(Object.keys(v.params!).map((p) => [p, '-not-an-id'])),
        key: asPlatform,
        ...(v.body !== undefined ? { body: v.body } : {}),
      });
    case 'payload_too_large':
      return call({ key: asPlatform, rawBody: JSON.stringify({ pad: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } });
    case 'unsupported_media_type':
      return call({ key: asPlatform, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    case 'idempotency_key_reused': {
      // The first answer is stored (a verb that changes nothing stands in for the real one); the same key with another body is refused before any verb runs.
      const idem = { 'idempotency-key': `reused-${r.operationId}` };
      await call({ key: asPlatform, headers: idem }, standIn(r));
      return call({ key: asPlatform, headers: idem, body: differentBody(r, v.body) });
    }
    case 'idempotency_in_progress': {
      // A request with the same key in flight holds the key's lock (server/rest/idempotency.ts): held here, as that request would.
      const idem = `in-flight-${r.operationId}`;
      const lockKey = JSON.stringify(['org_platform', r.method, decodeURIComponent(path.split('?')[0]!), idem]);
      return tdb.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 7))`);
        return call({ key: asPlatform, headers: { 'idempotency-key': idem } });
      });
    }
    default:
      return null;
  }
}

/** A body of the route that is valid and differs from its example's: the same key with it is another request. */
function differentBody(r: RouteSpec, body: unknown): unknown {
  const b = { ...(body as Record<string, unknown>) };
  const fields = new Set(Object.keys(r.body?.shape ?? {}));
  if (fields.has('reason')) return { ...b, reason: 'another reason' };
  if (fields.has('name')) return { ...b, name: 'another name' };
  if (fields.has('description')) return { ...b, description: 'another description' };
  if (fields.has('at')) return { ...b, at: later(5 * HOUR) };
  if (fields.has('count')) return { ...b, count: Number(b.count) === 1 ? 2 : 1 };
  if (fields.has('eventId')) return { ...b, eventId: 'ev-another' };
  if (fields.has('units')) return { ...b, units: [{ id: 'gpu-9' }] };
  if (fields.has('tier')) return { ...b, unitIds: ['gpu-7'] };
  throw new Error(`${r.operationId}: no other body to send`);
}

describe('each operation answers exactly the problem codes it lists', () => {
  for (const r of restRoutes) {
    it(`${r.method} ${r.path} (${r.operationId})`, { timeout: 60_000 }, async () => {
      const declared = operationErrorCodes(r);
      const produced: string[] = [];
      for (const code of declared) {
        const domain = domainCases[r.operationId]?.[code];
        const res = domain ? await send(r.path, r.method, domain()) : await pipelineCase(r, code);
        if (res === null) continue;
        if (res.json?.code === code) produced.push(code);
        else produced.push(`${code}? got ${res.status} ${res.text.slice(0, 200)}`);
      }
      // Every case written is for a code the operation lists (the other direction is the document check in callRoute).
      expect(Object.keys(domainCases[r.operationId] ?? {}).filter((c) => !declared.includes(c as ErrorCode))).toEqual([]);
      expect(produced).toEqual(declared);
    });
  }
});
