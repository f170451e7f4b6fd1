/**
 * A valid request of every REST route that writes nothing (docs/product.md §8 R3), on the scene
 * of server/testing/scene.ts: a read, or a write addressed to an unknown resource or by a
 * principal it refuses, so that whatever its schema accepts is still refused (404/403) after
 * validation. The hostile corpus (server/rest/hostile-input.test.ts) and the limits test
 * (server/rest/limits.test.ts) vary one field of these at a time.
 */
import type { OperationId } from '../operations';
import { ORG } from './scene';

export type Who = keyof typeof ORG | null;
/** A valid request of a route that writes nothing, and its answer. */
export type Base = {
  as: Who;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
};

const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
/** A feed cursor at the start, as the API hands one out (server/events/feed.ts). */
const feedStart = Buffer.from(JSON.stringify({ x: 0, s: 0, t: Date.now() }), 'utf8').toString('base64url');
const units = [
  { id: 'gpu-0', model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: 'nvl-0' },
  { id: 'gpu-1', model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: 'nvl-0' },
];
const missingReservation = { nodeId: 'n1', id: 'r-missing' };

/** One per route, keyed by its operation's id (the document's own route by its operationId); a test below fails when a route has none. */
// One operation per line, read as a table; prettier would break the long rows.
// prettier-ignore
export const bases: Partial<Record<OperationId | 'getOpenApiDocument', Base>> = {
  'nodes.list': { as: 'owner', query: { limit: '10', q: 'n', owner: 'org', sort: 'name', order: 'desc', relation: 'owns', hasReleased: 'true', needsReview: 'false' }, status: 200 },
  // The owner may not register nodes: 403 after the body is valid.
  'nodes.register': { as: 'owner', body: { id: 'n-new', name: 'New node', ownerOrgId: ORG.owner, units }, status: 403 },
  'nodes.get': { as: 'owner', params: { nodeId: 'n1' }, status: 200 },
  'nodes.unit': { as: 'owner', params: { nodeId: 'n1', unitId: 'gpu-0' }, status: 200 },
  'nodes.timeline': { as: 'owner', params: { nodeId: 'n1' }, query: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-08T00:00:00.000Z' }, status: 200 },
  'nodes.changeTopology': { as: 'platform', params: { nodeId: 'n-missing' }, body: { units, expectedTopologyGen: 1 }, status: 404 },
  'reservations.list': { as: 'owner', query: { role: 'any', limit: '10' }, status: 200 },
  'reservations.calendar': { as: 'owner', query: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-08T00:00:00.000Z', limit: '10' }, status: 200 },
  'reservations.listForNode': { as: 'owner', params: { nodeId: 'n1' }, query: { limit: '10' }, status: 200 },
  'reservations.create': {
    as: 'owner', params: { nodeId: 'n-missing' }, status: 404,
    body: { id: 'r-new', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], contractRef: 'C-9', startsAt: future, reason: 'hostile' },
  },
  'reservations.get': { as: 'owner', params: { nodeId: 'n1', id: 'r1' }, status: 200 },
  'utilisation.reservation': { as: 'owner', params: { nodeId: 'n1', id: 'r1' }, query: { window: '7d' }, status: 200 },
  'utilisation.rollup': { as: 'owner', query: { window: '30d', relation: 'owner' }, status: 200 },
  'reservations.update': {
    as: 'owner', params: missingReservation, status: 404,
    body: { allowedOrgIds: [ORG.audience], managingOrgIds: [ORG.managing], endsAt: future, contractRef: 'C-2', reservedUnitIds: ['gpu-0'], reason: 'hostile' },
  },
  'reservations.cancel': { as: 'owner', params: missingReservation, body: { reason: 'hostile' }, status: 404 },
  'reservations.release': { as: 'owner', params: missingReservation, body: { unitIds: ['gpu-5'], reason: 'hostile', dryRun: false }, status: 404 },
  'reservations.reclaim': { as: 'owner', params: missingReservation, body: { unitIds: ['gpu-0'], dryRun: false, reason: 'hostile', expectedTerminate: ['vm-spot-a'] }, status: 404 },
  'reservations.reclaimPlan': { as: 'owner', params: missingReservation, body: { count: 2, unitIds: ['gpu-0', 'gpu-3'], policy: 'fewest-evictions' }, status: 404 },
  'scheduledReclaims.list': { as: 'owner', params: { nodeId: 'n1', id: 'r1' }, query: { limit: '10' }, status: 200 },
  'scheduledReclaims.create': { as: 'owner', params: missingReservation, body: { unitIds: ['gpu-3'], at: future, reason: 'hostile' }, status: 404 },
  'scheduledReclaims.get': { as: 'owner', params: { ...missingReservation, scheduleId: 'rcs-missing' }, status: 404 },
  'scheduledReclaims.reschedule': { as: 'owner', params: { ...missingReservation, scheduleId: 'rcs-missing' }, body: { at: future }, status: 404 },
  'scheduledReclaims.cancel': { as: 'owner', params: { ...missingReservation, scheduleId: 'rcs-missing' }, body: {}, status: 404 },
  'reservations.reaffirm': { as: 'platform', params: missingReservation, body: { reason: 'hostile', expectedTopologyGen: 1 }, status: 404 },
  'vms.list': { as: 'owner', query: { nodeId: 'n1', status: 'running', tier: 'spot', limit: '10' }, status: 200 },
  'events.list': { as: 'owner', query: { after: feedStart, types: 'vm.reclaimed,reservation.reclaimed', wait: '0', limit: '10' }, status: 200 },
  'vms.place': { as: 'audience', body: { nodeId: 'n-missing', unitIds: ['gpu-5'], tier: 'reserved', reservationId: 'r1' }, status: 404 },
  'vms.get': { as: 'owner', params: { id: 'vm-res' }, status: 200 },
  'vms.terminate': { as: 'owner', params: { id: 'vm-missing' }, body: {}, status: 404 },
  'audit.list': { as: 'owner', query: { nodeId: 'n1', reservationId: 'r1', action: 'reservation.reclaim', since: '2026-01-01T00:00:00.000Z', until: future, limit: '10' }, status: 200 },
  'audit.notifications': { as: 'owner', query: { limit: '10' }, status: 200 },
  'audit.markNotificationRead': { as: 'owner', params: { id: 'ntf-missing' }, body: {}, status: 404 },
  'apiKeys.list': { as: 'owner', query: { limit: '10' }, status: 200 },
  // A key is every org's to create; the Idempotency-Key this route refuses (docs/product.md §9 m)
  // is checked after the body, so a valid body is still refused and no key is made.
  'apiKeys.create': { as: 'owner', body: { name: 'hostile' }, headers: { 'idempotency-key': 'hostile-1' }, status: 400 },
  'apiKeys.revoke': { as: 'owner', params: { id: 'key-missing' }, body: {}, status: 404 },
  'webhooks.list': { as: 'owner', query: { limit: '10' }, status: 200 },
  // As with keys: the answer holds a secret, so the refused Idempotency-Key keeps a valid body from creating one.
  'webhooks.create': {
    as: 'owner',
    body: { url: 'https://hooks.example.com/x', types: ['vm.reclaimed'], description: 'hostile', enabled: true },
    headers: { 'idempotency-key': 'hostile-1' },
    status: 400,
  },
  'webhooks.get': { as: 'owner', params: { id: 'wh-missing' }, status: 404 },
  'webhooks.update': { as: 'owner', params: { id: 'wh-missing' }, body: { url: 'https://hooks.example.com/y', types: [], description: 'x', enabled: false }, status: 404 },
  'webhooks.delete': { as: 'owner', params: { id: 'wh-missing' }, body: {}, status: 404 },
  'webhooks.rotateSecret': { as: 'owner', params: { id: 'wh-missing' }, body: {}, status: 404 },
  'webhooks.attempts': { as: 'owner', params: { id: 'wh-missing' }, query: { limit: '10' }, status: 404 },
  'webhooks.redeliver': { as: 'owner', params: { id: 'wh-missing' }, body: { eventId: 'ev-missing' }, status: 404 },
  'orgs.search': { as: 'owner', query: { q: 'org' }, status: 200 },
  getOpenApiDocument: { as: null, status: 200 },
};
