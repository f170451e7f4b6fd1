import type { Ctx } from '../context';
import { utilisationRelationsOf, utilisationScope } from '../policy';
import { readUtilisation, type UtilisationSummary } from './figures';
import type { GetUtilisationRollupInput } from './schemas';
import { utilisationRelations, windowShape, type UtilisationRelation, type UtilisationWindow } from './windows';

/** The acting org's roll-up (docs/product.md §5.8 Utilisation): one summary per relation it has. */
export type UtilisationRollup = {
  window: UtilisationWindow;
  from: string;
  to: string;
  relations: (UtilisationSummary & { relation: UtilisationRelation })[];
};

/**
 * The utilisation of every reservation the acting org stands to, summed per relation, over the
 * window ending `ctx.now` (docs/product.md §5.8 Utilisation): `owner` (reservations on the nodes
 * it owns), `manager` (those it manages), `audience` (those it may use) and, for the platform
 * operator, `fleet` (every reservation) — each the same totals and series as one reservation's.
 * A filtered read (§2): a relation the org does not have is left out, never 403.
 * @param input.relation only that relation (left out too when the org does not have it).
 * @returns the window `[from, to)` and one summary per relation, in the order owner, manager,
 *   audience, fleet.
 * @throws nothing of its own; a bad window or relation is 400 by the schema.
 */
export async function getUtilisationRollup({ ctx, input }: { ctx: Ctx; input: GetUtilisationRollupInput }): Promise<UtilisationRollup> {
  const has = await utilisationRelationsOf(ctx.db, ctx);
  const wanted = utilisationRelations.filter((r) => has[r] && (!input.relation || input.relation === r));
  // One statement per relation: each is its own index path (nodes_owner_idx, the GIN indexes on
  // the org lists, or the whole record for the fleet), which one grouped statement would blur.
  // In turn, not at once: ctx.db may be one transaction's connection.
  const window = input.window ?? '7d';
  const relations: UtilisationRollup['relations'] = [];
  for (const relation of wanted) {
    const scope = utilisationScope(ctx, relation);
    if (scope) relations.push({ relation, ...(await readUtilisation(ctx.db, scope, window, ctx.now)) });
  }
  const from = new Date(ctx.now.getTime() - windowShape[window].lengthMs).toISOString();
  return { window, from, to: ctx.now.toISOString(), relations };
}
