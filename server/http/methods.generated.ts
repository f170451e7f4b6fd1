// Generated from the REST route table (server/rest/routes.ts) by
// `npx tsx server/http/generate-methods.ts --write`; do not edit. server/http/methods.test.ts
// fails when it is stale.
import type { DeclaredMethod } from './methods';

/**
 * Each /v1 path template and the methods the route table declares at it, in the table’s order:
 * what the proxy answers 405s from (server/http/allow-at.ts) without loading a verb.
 */
export const declaredMethods: Readonly<Record<`/v1${string}`, readonly DeclaredMethod[]>> = {
  '/v1/nodes': ['GET', 'POST'],
  '/v1/nodes/{nodeId}': ['GET'],
  '/v1/nodes/{nodeId}/units/{unitId}': ['GET'],
  '/v1/nodes/{nodeId}/topology': ['PUT'],
  '/v1/nodes/{nodeId}/timeline': ['GET'],
  '/v1/reservations': ['GET'],
  '/v1/reservation-calendar': ['GET'],
  '/v1/nodes/{nodeId}/reservations': ['GET', 'POST'],
  '/v1/nodes/{nodeId}/reservations/{id}': ['GET', 'PATCH'],
  '/v1/nodes/{nodeId}/reservations/{id}/cancel': ['POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/release': ['POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/reclaim': ['POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan': ['POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/reaffirm': ['POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims': ['GET', 'POST'],
  '/v1/nodes/{nodeId}/reservations/{id}/scheduled-reclaims/{scheduleId}': ['GET', 'PATCH', 'DELETE'],
  '/v1/vms': ['GET', 'POST'],
  '/v1/vms/{id}': ['GET'],
  '/v1/vms/{id}/terminate': ['POST'],
  '/v1/audit': ['GET'],
  '/v1/notifications': ['GET'],
  '/v1/notifications/{id}/read': ['POST'],
  '/v1/api-keys': ['GET', 'POST'],
  '/v1/api-keys/{id}/revoke': ['POST'],
  '/v1/orgs': ['GET'],
  '/v1/nodes/{nodeId}/reservations/{id}/utilisation': ['GET'],
  '/v1/utilisation': ['GET'],
  '/v1/events': ['GET'],
  '/v1/webhooks': ['GET', 'POST'],
  '/v1/webhooks/{id}': ['GET', 'PATCH', 'DELETE'],
  '/v1/webhooks/{id}/rotate-secret': ['POST'],
  '/v1/webhooks/{id}/attempts': ['GET'],
  '/v1/webhooks/{id}/redeliver': ['POST'],
  '/v1/openapi.json': ['GET'],
};
