/**
 * The inputs of the queries each console page reads on the server (the page.tsx files of app/(console))
 * and renders from, with the page sizes and the URL parameters they come from.
 * (No 'use client': server pages import these values.)
 */
import type { RouterInputs } from './trpc-types';

export const FLEET_PAGE_SIZE = 10;

/** The fleet page's URL parameters besides `cursor`: the API's own names (docs/product.md §5 Lists). */
export const fleetFilterNames = ['q', 'owner', 'relation', 'hasReleased', 'needsReview', 'sort', 'order'] as const;
export type FleetFilters = Partial<Record<(typeof fleetFilterNames)[number], string>>;
type FleetInput = RouterInputs['nodes']['list'];

/** The fleet page's node list. */
export function fleetQueryInput(filters: FleetFilters = {}, cursor?: string): FleetInput {
  // As for the audit trail: the server checks what the URL says (a 400 naming the parameter).
  return { limit: FLEET_PAGE_SIZE, ...(filters as Omit<FleetInput, 'limit' | 'cursor'>), ...(cursor ? { cursor } : {}) };
}

/** The node page's three queries. */
export function nodePageQueryInputs(nodeId: string) {
  return { node: { nodeId }, reservations: { nodeId, limit: 500 }, vms: { nodeId, status: 'running' as const } };
}

// ── List pages whose filters live in the URL (docs/product.md §6) ───────────────────────

/** A page's `searchParams`, as Next hands them to a server page. */
export type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The named filters of a page's URL: the first value of each, when not empty. Values stay as
 * typed: the server validates them, and an invalid one is shown as the problem's `detail`.
 */
export function readFilters<K extends string>(searchParams: SearchParams, names: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const name of names) {
    const raw = searchParams[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value) out[name] = value;
  }
  return out;
}

/** A stable key for a filter set: a client list remounts (and pages from the start) when it changes. */
export function filtersKey(filters: Readonly<Record<string, string | undefined>>): string {
  return JSON.stringify(Object.entries(filters).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const cursorOf = (cursor: string | undefined) => (cursor ? { cursor } : {});

export const AUDIT_PAGE_SIZE = 20;
export const auditFilterNames = ['nodeId', 'reservationId', 'action', 'since', 'until'] as const;
export type AuditFilters = Partial<Record<(typeof auditFilterNames)[number], string>>;
type AuditInput = RouterInputs['audit']['list'];

/** The audit trail page's query (`audit.list`). */
export function auditQueryInput(filters: AuditFilters, cursor?: string): AuditInput {
  // The URL is untrusted text, typed here as the input only claims it is: the server checks it
  // (a 400 naming the parameter), and the page shows that problem's detail.
  return { limit: AUDIT_PAGE_SIZE, ...(filters as Omit<AuditInput, 'limit' | 'cursor'>), ...cursorOf(cursor) };
}

export const VM_PAGE_SIZE = 20;
export const vmFilterNames = ['nodeId', 'status', 'tier'] as const;
export type VmFilters = Partial<Record<(typeof vmFilterNames)[number], string>>;
type VmInput = RouterInputs['vms']['list'];

/** The VMs page's query (`vms.list`). */
export function vmsQueryInput(filters: VmFilters, cursor?: string): VmInput {
  // As for the audit trail: the server checks what the URL says.
  return { limit: VM_PAGE_SIZE, ...(filters as Omit<VmInput, 'limit' | 'cursor'>), ...cursorOf(cursor) };
}

export const CAPACITY_PAGE_SIZE = 20;
type ReservationListInput = RouterInputs['reservations']['list'];
/** "My capacity" lists the reservations the acting org is in the audience of, unless the URL asks for another role. */
export const CAPACITY_DEFAULT_ROLE = 'audience';

/** The "My capacity" page's query (`reservations.list`). */
export function capacityQueryInput(role: string | undefined, cursor?: string): ReservationListInput {
  return { limit: CAPACITY_PAGE_SIZE, role: (role ?? CAPACITY_DEFAULT_ROLE) as ReservationListInput['role'], ...cursorOf(cursor) };
}

export const RESERVATION_TRAIL_PAGE_SIZE = 10;
export const RESERVATION_SCHEDULES_PAGE_SIZE = 20;

/** The reservation page's queries: the reservation (and its offers), its node (the mini-grid) and running VMs, its status history, its scheduled reclaims and its audit trail. */
export function reservationPageQueryInputs(nodeId: string, reservationId: string) {
  const reservation = { nodeId, reservationId };
  return {
    node: { nodeId },
    vms: nodePageQueryInputs(nodeId).vms,
    reservation,
    history: reservation,
    trail: (cursor?: string): AuditInput => ({ nodeId, reservationId, limit: RESERVATION_TRAIL_PAGE_SIZE, ...cursorOf(cursor) }),
    /** Its scheduled reclaims, newest first; a later page by the URL's `?schedules=`. */
    schedules: (cursor?: string) => ({ nodeId, reservationId, limit: RESERVATION_SCHEDULES_PAGE_SIZE, ...cursorOf(cursor) }),
  };
}

export const API_KEYS_PAGE_SIZE = 20;

/** The API keys page's list. */
export function apiKeysQueryInput(cursor?: string) {
  return { limit: API_KEYS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

/** The webhooks page: the org's endpoints (at most 20), and the chosen one's latest delivery attempts. */
export const WEBHOOK_ATTEMPTS_PAGE_SIZE = 50;
export function webhookAttemptsQueryInput(webhookId: string, cursor?: string) {
  return { webhookId, limit: WEBHOOK_ATTEMPTS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
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

export const CALENDAR_PAGE_SIZE = 20;
/** The calendar's own URL parameters besides the fleet's filters and `cursor`: its window and view. */
export const calendarParamNames = ['span', 'from', 'view'] as const;
type CalendarInput = RouterInputs['reservations']['calendar'];

/** The calendar page's query: the fleet's filters over a page of nodes, and the window. */
export function calendarQueryInput(filters: FleetFilters, cursor: string | undefined, window: { from: string; to: string }): CalendarInput {
  // As for the fleet: the server checks what the URL says (a 400 naming the parameter).
  return {
    limit: CALENDAR_PAGE_SIZE,
    ...(filters as Omit<CalendarInput, 'limit' | 'cursor' | 'from' | 'to'>),
    ...cursorOf(cursor),
    from: window.from,
    to: window.to,
  };
}
