/** The console's page addresses, in one place (each id percent-encoded: ids may hold ":" and "."). */

export function nodeHref(nodeId: string): string {
  return `/nodes/${encodeURIComponent(nodeId)}`;
}

/** The reservation page (docs/product.md §6); reservation ids are unique per node, so it lives under its node. */
export function reservationHref(nodeId: string, reservationId: string): string {
  return `${nodeHref(nodeId)}/reservations/${encodeURIComponent(reservationId)}`;
}

export function vmHref(vmId: string): string {
  return `/vms/${encodeURIComponent(vmId)}`;
}
