/**
 * What the console's browser side and the tRPC server must agree on (isomorphic: no server
 * imports, so client components may import it).
 */

/** The header in which every console request names the acting org its page shows (docs/product.md §6). */
export const ACTING_ORG_HEADER = 'x-acting-org';

/**
 * Calls one HTTP request may batch. The node page batches a handful of queries; one request
 * batching 1,400 placements once held a node's lock for 3.8 s. A larger batch is refused as
 * a whole (400) before any call runs; the console's batch link splits at the same size.
 */
export const MAX_BATCH_SIZE = 16;
