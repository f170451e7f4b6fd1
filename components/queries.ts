/**
 * The inputs of the queries each console page makes, shared by the server page that
 * prefetches them and the client component that reads them: the same input gives the same
 * query key, so the browser finds the server's data already in its cache.
 * (No 'use client': server pages import these values.)
 */

export const FLEET_PAGE_SIZE = 10;

/** The fleet page's node list. */
export function fleetQueryInput(cursor?: string, ownerOrgId?: string) {
  return { limit: FLEET_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(ownerOrgId ? { ownerOrgId } : {}) };
}

/** The node page's three queries. */
export function nodePageQueryInputs(nodeId: string) {
  return { node: { nodeId }, reservations: { nodeId, limit: 500 }, vms: { nodeId, status: 'running' as const } };
}

export const API_KEYS_PAGE_SIZE = 20;

/** The API keys page's list. */
export function apiKeysQueryInput(cursor?: string) {
  return { limit: API_KEYS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** The notifications page's list. */
export function notificationsQueryInput(cursor?: string) {
  return { limit: NOTIFICATIONS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

/** The VM page's VM. */
export function vmPageQueryInput(vmId: string) {
  return { vmId };
}
