/**
 * Writes server/openapi/examples.json: an example request and its answer for every operation of
 * the REST API, each one played against the demo fleet (docs/product.md §7) on a throwaway
 * embedded PostgreSQL, through the very route handlers the API serves (docs/product.md §5: the
 * document gives an example of every operation). Lists are asked for one or two items, and
 * arrays of an answer longer than 8 are cut to 3, so that the document stays readable; secrets are replaced
 * by placeholders. The reclaim's two examples are checked against a live server by
 * server/openapi/examples.test.ts.
 *
 * Usage: `npx tsx server/openapi/examples-capture.ts` (then `npx prettier --write server/openapi/examples.json`).
 */
import { createDb } from '@/db/client';
import { makeTempDataDir, startEmbeddedPostgres } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { writeFileSync } from 'node:fs';
import { seedDemoFleet } from '../demo';
import type { RestExample } from '../operation';
import { routeHandlers, restRoutes } from '../rest/routes';

type Captured = Record<string, Record<string, RestExample<unknown>>>;

const pg = await startEmbeddedPostgres({ dir: makeTempDataDir('gpu-examples-pg'), persistent: false, fast: true });
try {
  await migrateDatabase(pg.url);
  process.env.DATABASE_URL = pg.url;
  const { db, client } = createDb(pg.url, { max: 2 });
  const keys = await seedDemoFleet(db, new Date());
  await client.end();
  const captured: Captured = {};

  /** Plays one example as `org` and records it under the route's operationId (and `name`). */
  async function play(
    org: string,
    method: string,
    template: `/v1${string}`,
    ex: Omit<RestExample<unknown>, 'response'> = {},
    name = 'example',
  ): Promise<Record<string, unknown>> {
    const route = restRoutes.find((r) => r.path === template && r.method === method);
    if (!route) throw new Error(`no route ${method} ${template}`);
    const path = template.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(ex.params![p]!));
    const query = ex.query ? `?${new URLSearchParams(Object.entries(ex.query).map(([k, v]) => [k, String(v)]))}` : '';
    const handler = routeHandlers(template)[method as 'GET']!;
    const res = await handler(
      new Request(`http://localhost${path}${query}`, {
        method,
        headers: { authorization: `Bearer ${keys[org]}`, ...(ex.body ? { 'content-type': 'application/json' } : {}) },
        ...(ex.body ? { body: JSON.stringify(ex.body) } : {}),
      }),
      { params: Promise.resolve(ex.params ?? {}) },
    );
    const response = (await res.json()) as Record<string, unknown>;
    if (res.status !== (route.status ?? 200)) throw new Error(`${method} ${template}: ${res.status} ${JSON.stringify(response)}`);
    (captured[route.operationId] ??= {})[name] = { ...ex, response: trimmed(response) };
    return response;
  }

  const later = (ms: number) => new Date(Date.now() + ms).toISOString();
  const hour = 3_600_000;
  const nimbus02 = { nodeId: 'acme-h100-02', id: 'res-nimbus-02' };
  const README_UNITS = ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-6'];

  // Nodes.
  await play('org_acme', 'GET', '/v1/nodes', { query: { owner: 'org_acme', limit: 1 } });
  await play('org_platform', 'POST', '/v1/nodes', {
    body: {
      id: 'acme-h100-21',
      name: 'Acme H100 #21 (fra-2)',
      ownerOrgId: 'org_acme',
      units: [0, 1, 2, 3].map((i) => ({ id: `gpu-${i}`, model: 'H100 SXM', memoryGiB: 80 })),
    },
  });
  await play('org_acme', 'GET', '/v1/nodes/{nodeId}', { params: { nodeId: 'acme-h100-02' } });
  await play('org_platform', 'GET', '/v1/nodes/{nodeId}/units/{unitId}', { params: { nodeId: 'acme-h100-02', unitId: 'gpu-0' } });
  await play('org_platform', 'PUT', '/v1/nodes/{nodeId}/topology', {
    params: { nodeId: 'acme-h100-21' },
    body: { units: [0, 1, 2, 3].map((i) => ({ id: `gpu-${i}`, model: 'H100 SXM', memoryGiB: i === 3 ? 94 : 80 })), expectedTopologyGen: 1 },
  });
  await play('org_helix', 'GET', '/v1/nodes/{nodeId}/timeline', { params: { nodeId: 'acme-h100-02' }, query: { from: later(-24 * hour), to: later(hour) } });

  // Reservations.
  await play('org_helix', 'GET', '/v1/reservations', { query: { role: 'managing', limit: 1 } });
  await play('org_acme', 'GET', '/v1/reservation-calendar', { query: { owner: 'org_acme', limit: 1, from: later(-hour), to: later(7 * 24 * hour) } });
  await play('org_acme', 'GET', '/v1/nodes/{nodeId}/reservations', { params: { nodeId: 'acme-h100-02' }, query: { limit: 1 } });
  await play('org_acme', 'POST', '/v1/nodes/{nodeId}/reservations', {
    params: { nodeId: 'acme-h100-21' },
    body: {
      id: 'res-nimbus-21',
      reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      contractRef: 'MSA-2026-114',
      endsAt: later(30 * 24 * hour),
      reason: 'Nimbus training capacity, Q1',
    },
  });
  await play('org_helix', 'GET', '/v1/nodes/{nodeId}/reservations/{id}', { params: nimbus02 });
  await play('org_acme', 'PATCH', '/v1/nodes/{nodeId}/reservations/{id}', {
    params: { nodeId: 'acme-h100-21', id: 'res-nimbus-21' },
    body: { managingOrgIds: [], reason: 'Nimbus manages its own capacity now' },
  });
  await play('org_acme', 'POST', '/v1/nodes/{nodeId}/reservations/{id}/release', {
    params: { nodeId: 'acme-h100-21', id: 'res-nimbus-21' },
    body: { unitIds: ['gpu-2', 'gpu-3'], reason: 'idle this week' },
  });
  const plan = await play('org_helix', 'POST', '/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan', { params: nimbus02, body: { count: 2 } });
  if (!Array.isArray(plan.unitIds)) throw new Error('no plan');
  // The reclaim (docs/product.md §5.1): the README's flow on the demo fleet, a preview, then the
  // reclaim of what it showed.
  const dry = await play(
    'org_helix',
    'POST',
    '/v1/nodes/{nodeId}/reservations/{id}/reclaim',
    { params: nimbus02, body: { unitIds: README_UNITS, dryRun: true } },
    'dryRun',
  );
  await play(
    'org_helix',
    'POST',
    '/v1/nodes/{nodeId}/reservations/{id}/reclaim',
    { params: nimbus02, body: { unitIds: README_UNITS, reason: 'Nimbus needs its GPUs back', expectedTerminate: dry.wouldTerminate } },
    'reclaim',
  );
  await play('org_platform', 'POST', '/v1/nodes/{nodeId}/reservations/{id}/reaffirm', {
    params: { nodeId: 'acme-h100-01', id: 'res-nimbus-01-review' },
    body: { reason: 'topology change reviewed with Nimbus', expectedTopologyGen: 2 },
  });

  // Scheduled reclaims, on the unit the reclaim left released.
  const schedule = await play('org_helix', 'POST', '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims', {
    params: nimbus02,
    body: { unitIds: ['gpu-5'], at: later(2 * hour), reason: 'maintenance window' },
  });
  const scheduleKey = { ...nimbus02, scheduleId: String(schedule.id) };
  await play('org_helix', 'GET', '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims', { params: nimbus02, query: { limit: 1 } });
  await play('org_helix', 'GET', '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}', { params: scheduleKey });
  await play('org_helix', 'PATCH', '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}', {
    params: scheduleKey,
    body: { at: later(3 * hour) },
  });
  await play('org_helix', 'DELETE', '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}', { params: scheduleKey });

  // VMs.
  const vm = await play('org_orbit', 'POST', '/v1/vms', { body: { nodeId: 'acme-h100-21', unitIds: ['gpu-2'], tier: 'spot' } });
  await play('org_orbit', 'GET', '/v1/vms', { query: { nodeId: 'acme-h100-21', status: 'running', limit: 1 } });
  await play('org_orbit', 'GET', '/v1/vms/{id}', { params: { id: String(vm.id) } });
  await play('org_orbit', 'POST', '/v1/vms/{id}/terminate', { params: { id: String(vm.id) } });
  await play('org_acme', 'POST', '/v1/nodes/{nodeId}/reservations/{id}/cancel', {
    params: { nodeId: 'acme-h100-21', id: 'res-nimbus-21' },
    body: { reason: 'contract ended early' },
  });

  // Audit, notifications, utilisation, orgs.
  await play('org_helix', 'GET', '/v1/audit', { query: { reservationId: 'res-nimbus-02', action: 'reservation.reclaim', limit: 1 } });
  const notes = await play('org_orbit', 'GET', '/v1/notifications', { query: { limit: 1 } });
  await play('org_orbit', 'POST', '/v1/notifications/{id}/read', { params: { id: String((notes.items as { id: string }[])[0]!.id) } });
  await play('org_helix', 'GET', '/v1/nodes/{nodeId}/reservations/{id}/utilisation', { params: nimbus02, query: { window: '7d' } });
  await play('org_helix', 'GET', '/v1/utilisation', { query: { window: '7d', relation: 'manager' } });
  await play('org_acme', 'GET', '/v1/orgs', { query: { q: 'nim' } });
  await play('org_helix', 'GET', '/v1/events', { query: { types: 'reservation.reclaimed', limit: 1 } });

  // API keys.
  const key = await play('org_helix', 'POST', '/v1/api-keys', { body: { name: 'ci-deploy' } });
  await play('org_helix', 'GET', '/v1/api-keys', { query: { limit: 1 } });
  await play('org_helix', 'POST', '/v1/api-keys/{id}/revoke', { params: { id: String(key.id) } });

  // Webhooks (nothing listens at the address: the redelivery's attempt says so).
  const hook = await play('org_helix', 'POST', '/v1/webhooks', {
    body: { url: 'https://hooks.helix.example/gpu-events', types: ['reservation.reclaimed', 'vm.reclaimed'], description: 'capacity dashboard' },
  });
  const hookKey = { id: String(hook.id) };
  await play('org_helix', 'GET', '/v1/webhooks', { query: { limit: 1 } });
  await play('org_helix', 'GET', '/v1/webhooks/{id}', { params: hookKey });
  await play('org_helix', 'PATCH', '/v1/webhooks/{id}', { params: hookKey, body: { description: 'capacity dashboard (staging)' } });
  await play('org_helix', 'POST', '/v1/webhooks/{id}/rotate-secret', { params: hookKey });
  const events = await play('org_helix', 'GET', '/v1/events', { query: { limit: 1 } }, 'first');
  await play('org_helix', 'POST', '/v1/webhooks/{id}/redeliver', { params: hookKey, body: { eventId: (events.items as { id: string }[])[0]!.id } });
  await play('org_helix', 'GET', '/v1/webhooks/{id}/attempts', { params: hookKey, query: { limit: 1 } });
  await play('org_helix', 'DELETE', '/v1/webhooks/{id}', { params: hookKey });
  delete captured.listEvents!.first;

  // The document itself: its answer is this very document, shown in brief.
  captured.getOpenApiDocument = { example: { response: { openapi: '3.1.0', info: { title: 'GPU Reservations API', version: '1.0.0' }, paths: {} } } };

  const missing = restRoutes.filter((r) => !captured[r.operationId]).map((r) => r.operationId);
  if (missing.length > 0) throw new Error(`no example for ${missing.join(', ')}`);
  writeFileSync(new URL('./examples.json', import.meta.url), JSON.stringify(sortedByOperation(captured), null, 1) + '\n');
  console.log(`examples.json: ${Object.keys(captured).length} operations`);
} finally {
  await pg.stop();
}

/** An answer as the document shows it: arrays of more than 8 items cut to their first 3, secrets replaced by placeholders. */
function trimmed(value: unknown): never {
  if (Array.isArray(value)) return (value.length > 8 ? value.slice(0, 3) : value).map(trimmed) as never;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === 'secret' && typeof v === 'string'
          ? `${v.slice(0, v.indexOf('_') + 1)}EXAMPLE-SHOWN-ONCE`
          : k === 'nextCursor' && typeof v === 'string'
            ? v
            : trimmed(v),
      ]),
    ) as never;
  }
  return value as never;
}

function sortedByOperation(c: Captured): Captured {
  return Object.fromEntries(Object.entries(c).sort(([a], [b]) => (a < b ? -1 : 1)));
}
