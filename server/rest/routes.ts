/**
 * The REST API, one entry per operation (docs/product.md §5 routes table). Everything else is
 * derived from this table: each `app/v1/**\/route.ts` is one line selecting its path
 * (`routeHandlers`), the OpenAPI document renders it (server/openapi/document.ts, handed the
 * table), the proxy's 405s come from the method map generated from it
 * (server/http/methods.generated.ts, so the proxy never loads this module and its verbs), and
 * the authorization matrix (server/authorization-matrix.test.ts) has one row of expectations per
 * `operationId` and fails when an entry has no route file or no row.
 *
 * Adding a route: one entry here, one route file, one matrix row, the regenerated method map
 * and contract snapshot (docs/architecture.md).
 */
import type { z } from 'zod';
import { createApiKey } from '../api-keys/create';
import { listApiKeys } from '../api-keys/list';
import { revokeApiKey } from '../api-keys/revoke';
import { CreateApiKeyInput, ListApiKeysQuery, RevokeApiKeyBody } from '../api-keys/schemas';
import { listAuditEvents } from '../audit/list';
import { ListAuditQuery } from '../audit/schemas';
import type { ErrorCode } from '../errors';
import { getNode } from '../nodes/get';
import { listNodes } from '../nodes/list';
import { registerNode } from '../nodes/register';
import { ChangeTopologyBody, ListNodesQuery, RegisterNodeInput } from '../nodes/schemas';
import { changeTopology } from '../nodes/topology';
import { listNotifications } from '../notifications/list';
import { ListNotificationsQuery } from '../notifications/schemas';
import { markNotificationRead } from '../notifications/read';
import { MarkNotificationReadBody } from '../notifications/schemas';
import {
  ApiKey,
  ApiKeyPage,
  AuditEventPage,
  CreatedApiKey,
  Node,
  NodePage,
  Notification,
  NotificationPage,
  OpenApiDocumentSchema,
  OrgSummaryList,
  ReclaimResponse,
  Reservation,
  ReservationPage,
  Vm,
  VmPage,
} from '../openapi/schemas';
import { SearchOrgsQuery } from '../orgs/schemas';
import { searchOrgs } from '../orgs/search';
import { cancelReservation } from '../reservations/cancel';
import { createReservation } from '../reservations/create';
import { getReservation } from '../reservations/get';
import { listNodeReservations, listReservations } from '../reservations/list';
import { reaffirm } from '../reservations/reaffirm';
import { reclaim } from '../reservations/reclaim';
import { release } from '../reservations/release';
import {
  CreateReservationBody,
  ListNodeReservationsQuery,
  ListReservationsQuery,
  ReaffirmBody,
  ReasonBody,
  ReclaimBody,
  ReleaseBody,
  UpdateReservationBody,
} from '../reservations/schemas';
import { updateReservation } from '../reservations/update';
import { getVm } from '../vms/get';
import { listVms } from '../vms/list';
import { placeVm } from '../vms/place';
import { ListVmsQuery, PlaceVmInput, TerminateVmBody } from '../vms/schemas';
import { terminateVm } from '../vms/terminate';
import { ApiKeyPath, NodePath, NotificationPath, ReservationPath, VmPath } from './paths';
import { restRoute, type NextHandler } from './route';
import type { RouteSpec } from './route-spec';

/** Declares one entry; exists for type inference of each entry's schemas in `handle`. */
function route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodUndefined>(r: RouteSpec<P, Q, B>): RouteSpec {
  return r as unknown as RouteSpec;
}

const NOT_FOUND_AND_FORBIDDEN: ErrorCode[] = ['not_found', 'forbidden'];

/** The path of the OpenAPI document: the one route that needs no credentials (docs/product.md §5). */
export const OPENAPI_PATH = '/v1/openapi.json';

export const restRoutes: readonly RouteSpec[] = [
  route({
    method: 'GET',
    path: '/v1/nodes',
    operationId: 'listNodes',
    console: 'fleet page',
    tag: 'Nodes',
    summary: 'List nodes',
    description: 'Nodes visible to the caller, by id, cursor-paginated, with per-state unit counts.',
    query: ListNodesQuery,
    response: NodePage,
    responseDescription: 'A page of nodes.',
    errors: [],
    handle: ({ ctx, query }) => listNodes({ ctx, input: query }),
  }),
  route({
    method: 'POST',
    path: '/v1/nodes',
    operationId: 'registerNode',
    console: 'fleet page: Register node…',
    tag: 'Nodes',
    summary: 'Register a node',
    description: 'Platform operator only: registers a node with its unit list (1–64 units).',
    body: RegisterNodeInput,
    status: 201,
    response: Node,
    responseDescription: 'The registered node.',
    errors: ['forbidden', 'already_exists', 'unknown_org'],
    handle: ({ ctx, body }) => registerNode({ ctx, input: body }),
  }),
  route({
    method: 'GET',
    path: '/v1/nodes/{nodeId}',
    operationId: 'getNode',
    console: 'node page',
    tag: 'Nodes',
    summary: 'Get a node',
    description: 'One node: its units with their state (docs/product.md §3) and its topologyGen.',
    params: NodePath,
    response: Node,
    responseDescription: 'The node.',
    errors: ['not_found'],
    handle: ({ ctx, params }) => getNode({ ctx, input: params }),
  }),
  route({
    method: 'PUT',
    path: '/v1/nodes/{nodeId}/topology',
    operationId: 'changeTopology',
    console: 'node page: Change topology…',
    tag: 'Nodes',
    summary: "Replace a node's unit list",
    description:
      'Platform operator only. When anything differs, topologyGen goes up by one and every pending or active reservation written against an older generation becomes needs-review (docs/product.md §5.4). With `expectedTopologyGen`, only while the node is still at the generation the caller edited (else 409 topology_changed).',
    params: NodePath,
    body: ChangeTopologyBody,
    response: Node,
    responseDescription: 'The node after the change.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'topology_changed', 'unit_occupied'],
    handle: ({ ctx, params, body }) => changeTopology({ ctx, input: { ...body, nodeId: params.nodeId } }),
  }),
  route({
    method: 'GET',
    path: '/v1/reservations',
    operationId: 'listReservations',
    console: 'My capacity page',
    tag: 'Reservations',
    summary: 'List reservations across nodes',
    description:
      'The reservations the caller may see, on every node, ordered by (nodeId, id) and cursor-paginated. `role=audience` keeps those whose allowedOrgIds hold the acting org (its capacity), `role=managing` those whose managingOrgIds hold it. A filtered list: never 403.',
    query: ListReservationsQuery,
    response: ReservationPage,
    responseDescription: 'A page of reservations.',
    errors: [],
    handle: ({ ctx, query }) => listReservations({ ctx, input: query }),
  }),
  route({
    method: 'GET',
    path: '/v1/nodes/{nodeId}/reservations',
    operationId: 'listNodeReservations',
    console: 'node page: reservations panel',
    tag: 'Reservations',
    summary: 'List reservations on a node',
    description: 'Reservations on the node that the caller may see, cursor-paginated.',
    params: NodePath,
    query: ListNodeReservationsQuery,
    response: ReservationPage,
    responseDescription: 'A page of reservations.',
    errors: ['not_found'],
    handle: async ({ ctx, params, query }) => {
      // The verb pairs each reservation with the console's actions; REST answers Reservations.
      const page = await listNodeReservations({ ctx, input: { ...query, nodeId: params.nodeId } });
      return { items: page.items.map((r) => r.reservation), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/nodes/{nodeId}/reservations',
    operationId: 'createReservation',
    console: 'node page: Reserve…',
    tag: 'Reservations',
    summary: 'Create a reservation',
    description:
      'Platform operator or node owner. `startsAt` defaults to now and may be at most 5 minutes in the past (else 422 start_in_past); the orgs named must exist (422).',
    params: NodePath,
    body: CreateReservationBody,
    status: 201,
    response: Reservation,
    responseDescription: 'The new reservation.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'already_exists', 'unit_occupied', 'reservation_overlap', 'start_in_past', 'unknown_unit', 'unknown_org'],
    handle: ({ ctx, params, body }) => createReservation({ ctx, input: { ...body, nodeId: params.nodeId } }),
  }),
  route({
    method: 'GET',
    path: '/v1/nodes/{nodeId}/reservations/{id}',
    operationId: 'getReservation',
    console: 'reservation page',
    tag: 'Reservations',
    summary: 'Get a reservation',
    params: ReservationPath,
    response: Reservation,
    responseDescription: 'The reservation.',
    errors: ['not_found'],
    handle: ({ ctx, params }) => getReservation({ ctx, input: { nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/nodes/{nodeId}/reservations/{id}',
    operationId: 'updateReservation',
    console: "node page: Edit… (and Re-affirm…'s shrink)",
    tag: 'Reservations',
    summary: 'Edit a reservation',
    description: 'Edit the audience, managers, endsAt and contractRef, or shrink reservedUnitIds (never grow it; docs/product.md §5.4).',
    params: ReservationPath,
    body: UpdateReservationBody,
    response: Reservation,
    responseDescription: 'The reservation after the change.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'unit_occupied', 'reservation_overlap', 'unit_not_in_reservation', 'unknown_org'],
    handle: ({ ctx, params, body }) => updateReservation({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'POST',
    path: '/v1/nodes/{nodeId}/reservations/{id}/cancel',
    operationId: 'cancelReservation',
    console: 'node page: Cancel reservation…',
    tag: 'Reservations',
    summary: 'Cancel a reservation',
    description: 'Pending, active or needs-review → cancelled. Its units stop being held; running VMs keep running.',
    params: ReservationPath,
    body: ReasonBody,
    response: Reservation,
    responseDescription: 'The cancelled reservation.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active'],
    handle: ({ ctx, params, body }) => cancelReservation({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'POST',
    path: '/v1/nodes/{nodeId}/reservations/{id}/release',
    operationId: 'releaseUnits',
    console: 'node page: Release…',
    tag: 'Reservations',
    summary: 'Put reserved units on the spot market',
    description:
      'Same principals as reclaim. The reservation must be active; the units must be reserved by it and not run a VM. The dry run returns the reservation as it would look after the release, and writes nothing (docs/product.md §5.2).',
    params: ReservationPath,
    body: ReleaseBody,
    response: Reservation,
    responseDescription: 'The reservation after the release (or, on a dry run, as it would be).',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'reservation_needs_review', 'unit_occupied', 'unit_not_in_reservation'],
    readOnly: (body) => body.dryRun === true,
    handle: ({ ctx, params, body }) => release({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'POST',
    path: '/v1/nodes/{nodeId}/reservations/{id}/reclaim',
    operationId: 'reclaimUnits',
    console: 'node page: Reclaim…',
    tag: 'Reservations',
    // The published contract's words (docs/product.md §5.1a).
    summary: 'Take released GPU units back off the market, evicting spot workloads',
    description:
      "Returns the named units to exclusive use AND terminates the spot workloads running on them, in one call. Everything evicted was bought at the spot tier, whose terms are exactly that the capacity owner can reclaim without notice. Pass dryRun to see what would be terminated without changing anything. Callable by a platform operator, the org that owns the node, or an org in the reservation's managingOrgIds.",
    params: ReservationPath,
    body: ReclaimBody,
    response: ReclaimResponse,
    responseDescription: 'OK',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_reclaimable', 'eviction_set_changed', 'unit_not_in_reservation'],
    readOnly: (body) => body.dryRun === true,
    handle: ({ ctx, params, body }) => reclaim({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'POST',
    path: '/v1/nodes/{nodeId}/reservations/{id}/reaffirm',
    operationId: 'reaffirmReservation',
    console: 'node page: Re-affirm…',
    tag: 'Reservations',
    summary: 'Re-affirm a reservation after a topology change',
    description:
      "Platform operator only: sets the reservation's topologyGen to the node's, taking it out of needs-review (docs/product.md §5.4). With `expectedTopologyGen`, only while the node is still at the generation the caller reviewed (else 409 topology_changed).",
    params: ReservationPath,
    body: ReaffirmBody,
    response: Reservation,
    responseDescription: 'The re-affirmed reservation.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'topology_changed', 'unit_missing'],
    handle: ({ ctx, params, body }) => reaffirm({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
  route({
    method: 'GET',
    path: '/v1/vms',
    operationId: 'listVms',
    console: 'VMs page',
    tag: 'VMs',
    summary: 'List VMs',
    description: 'VMs the caller may see, cursor-paginated.',
    query: ListVmsQuery,
    response: VmPage,
    responseDescription: 'A page of VMs.',
    errors: [],
    handle: ({ ctx, query }) => listVms({ ctx, input: query }),
  }),
  route({
    method: 'POST',
    path: '/v1/vms',
    operationId: 'placeVm',
    console: 'api-only: schedulers place VMs, not people (docs/product.md §6)',
    tag: 'VMs',
    summary: 'Place a VM',
    description: 'Places a VM on 1–64 units of a node at a tier (docs/product.md §5.3). A unit runs at most one VM.',
    body: PlaceVmInput,
    status: 201,
    response: Vm,
    responseDescription: 'The running VM.',
    errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'reservation_needs_review', 'unit_occupied', 'unit_unavailable', 'unknown_unit'],
    handle: ({ ctx, body }) => placeVm({ ctx, input: body }),
  }),
  route({
    method: 'GET',
    path: '/v1/vms/{id}',
    operationId: 'getVm',
    console: 'VM page',
    tag: 'VMs',
    summary: 'Get a VM',
    params: VmPath,
    response: Vm,
    responseDescription: 'The VM.',
    errors: ['not_found'],
    handle: ({ ctx, params }) => getVm({ ctx, input: { vmId: params.id } }),
  }),
  route({
    method: 'POST',
    path: '/v1/vms/{id}/terminate',
    operationId: 'terminateVm',
    console: 'node page: Terminate… in the VM table',
    tag: 'VMs',
    summary: 'Terminate a VM',
    description: "The VM's own org or a platform operator. Terminating a VM that has ended changes nothing.",
    params: VmPath,
    body: TerminateVmBody,
    response: Vm,
    responseDescription: 'The terminated VM.',
    errors: NOT_FOUND_AND_FORBIDDEN,
    handle: ({ ctx, params }) => terminateVm({ ctx, input: { vmId: params.id } }),
  }),
  route({
    method: 'GET',
    path: '/v1/audit',
    operationId: 'listAuditEvents',
    console: 'audit trail page, reservation page',
    tag: 'Audit',
    summary: 'List audit events',
    description: 'The audit events the caller may see, newest first, filterable by node, reservation, action and time; cursor-paginated. Never 403.',
    query: ListAuditQuery,
    response: AuditEventPage,
    responseDescription: 'A page of audit events.',
    errors: [],
    handle: ({ ctx, query }) => listAuditEvents({ ctx, input: query }),
  }),
  route({
    method: 'GET',
    path: '/v1/notifications',
    operationId: 'listNotifications',
    console: "notifications page and the header's bell",
    tag: 'Audit',
    summary: "List the acting org's notifications",
    description: 'E.g. a VM ended by reclaim; newest first, cursor-paginated.',
    query: ListNotificationsQuery,
    response: NotificationPage,
    responseDescription: 'A page of notifications.',
    errors: [],
    handle: ({ ctx, query }) => listNotifications({ ctx, input: query }),
  }),
  route({
    method: 'POST',
    path: '/v1/notifications/{id}/read',
    operationId: 'markNotificationRead',
    console: 'notifications page: Mark as read',
    tag: 'Audit',
    summary: 'Mark a notification read',
    description: "Only the acting org's own notifications; another org's is 404. Marking a read notification again keeps its first readAt.",
    params: NotificationPath,
    body: MarkNotificationReadBody,
    response: Notification,
    responseDescription: 'The notification, with readAt.',
    errors: ['not_found'],
    handle: ({ ctx, params }) => markNotificationRead({ ctx, input: { notificationId: params.id } }),
  }),
  route({
    method: 'GET',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    console: 'API keys page',
    tag: 'API keys',
    summary: "List the acting org's API keys",
    description:
      'Newest first, revoked ones included (with revokedAt); never a secret; each with who created it (`createdBy`) where that was recorded. Every org sees only its own keys, the platform operator included.',
    query: ListApiKeysQuery,
    response: ApiKeyPage,
    responseDescription: 'A page of API keys.',
    errors: [],
    handle: ({ ctx, query }) => listApiKeys({ ctx, input: query }),
  }),
  route({
    method: 'POST',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    console: 'API keys page: Create API key',
    tag: 'API keys',
    summary: 'Create an API key',
    description:
      'A new key of the acting org (audited as api_key.create), recording who created it (`createdBy`). The answer holds its secret, shown this once: only a hash is stored. No Idempotency-Key: an answer holding the secret is never stored, so it could not be replayed (docs/product.md §9 m). An org has at most 100 active keys (409 limit_reached, with `limit`; revoke one first) and creates at most 20 a minute (API_KEY_CREATIONS_PER_ORG_PER_MINUTE; 429 rate_limited with Retry-After).',
    body: CreateApiKeyInput,
    status: 201,
    response: CreatedApiKey,
    responseDescription: 'The new key, with its secret.',
    errors: ['limit_reached'],
    idempotency: 'refused',
    handle: ({ ctx, body }) => createApiKey({ ctx, input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/api-keys/{id}/revoke',
    operationId: 'revokeApiKey',
    console: 'API keys page: Revoke',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description:
      "One of the acting org's keys (another org's is 404); audited as api_key.revoke. From then on the key is refused (401) on every request. Revoking a revoked key changes nothing.",
    params: ApiKeyPath,
    body: RevokeApiKeyBody,
    response: ApiKey,
    responseDescription: 'The revoked key.',
    errors: ['not_found'],
    handle: ({ ctx, params }) => revokeApiKey({ ctx, input: { apiKeyId: params.id } }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs',
    operationId: 'searchOrgs',
    console: 'Reserve… and Edit… dialogs: the org picker',
    tag: 'Orgs',
    summary: 'Search orgs by name (the org picker)',
    description:
      'Ids and names of the orgs whose name or id contains `q`, at most 20, by name. For those who may create reservations: the platform operator and node owners (else 403).',
    query: SearchOrgsQuery,
    response: OrgSummaryList,
    responseDescription: 'Matching orgs.',
    errors: ['forbidden'],
    handle: ({ ctx, query }) => searchOrgs({ ctx, input: query }),
  }),
  route({
    method: 'GET',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    console: 'api-only: the machine-readable contract for programs',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    description: 'Needs no credentials.',
    response: OpenApiDocumentSchema,
    responseDescription: 'The OpenAPI document of every route.',
    errors: [],
    auth: 'none',
    // Loaded on first use, and handed this very table to render (the document imports no route
    // table: server/import-cycles.test.ts). It depends only on code, so it is built once per process.
    handle: async () => (await import('../openapi/document')).getOpenApiDocument(restRoutes),
  }),
];

/**
 * The HTTP method exports of the route file for `path`: its table entries run through the
 * REST pipeline (server/rest/route.ts); other methods answer 405 with `Allow`.
 * Usage, in `app/v1/…/route.ts`: `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/v1/…');`
 * @throws Error at load time when the table has no entry for the path (a route file without an entry).
 */
export function routeHandlers(path: RouteSpec['path']): Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', NextHandler> {
  const entries = restRoutes.filter((r) => r.path === path);
  if (entries.length === 0) throw new Error(`No route-table entry for ${path} (server/rest/routes.ts)`);
  return restRoute(Object.fromEntries(entries.map((r) => [r.method, r])));
}
