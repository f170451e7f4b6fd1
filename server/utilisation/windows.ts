/**
 * The utilisation windows and relations (docs/product.md §5.8 Utilisation): a neutral module the
 * schemas, the policy and the console pages share (pages may not import server/policy.ts).
 */

/** The windows offered, each ending now. */
export const utilisationWindows = ['7d', '30d'] as const;
export type UtilisationWindow = (typeof utilisationWindows)[number];

/** How the acting org stands to what a roll-up sums (§2's columns; `fleet`: the operator). */
export const utilisationRelations = ['owner', 'manager', 'audience', 'fleet'] as const;
export type UtilisationRelation = (typeof utilisationRelations)[number];

const hour = 3600_000;

/**
 * A window's length and its chart buckets: 7 days in 28 buckets of 6 h, 30 days in 30 of a day.
 * Buckets are counted back from now (the last one ends now), so they tile the window exactly and
 * the series sums to the totals.
 */
export const windowShape: Record<UtilisationWindow, { lengthMs: number; bucketMs: number }> = {
  '7d': { lengthMs: 7 * 24 * hour, bucketMs: 6 * hour },
  '30d': { lengthMs: 30 * 24 * hour, bucketMs: 24 * hour },
};
