import type { Ctx } from '../context';
import { nodeRelation, offeredNodeActions, type NodeAction } from '../policy';
import { readNode } from './internal';
import type { GetNodeInput } from './schemas';

/**
 * What the acting org may do on a node from the console (reserve units, change its topology),
 * by the same rules the verbs assert (server/policy.ts `nodeRules`).
 * @returns the offered node actions, e.g. `['createReservation']` for the node's owner.
 * @throws DomainError not_found
 */
export async function listNodeActions({ ctx, input }: { ctx: Ctx; input: GetNodeInput }): Promise<NodeAction[]> {
  const node = await readNode(ctx, input.nodeId);
  return offeredNodeActions(nodeRelation(ctx, node)).filter((a) => a !== 'registerNode');
}

/** Fleet-level console actions (registering a node): the operator's only. */
export async function listFleetActions({ ctx }: { ctx: Ctx }): Promise<NodeAction[]> {
  return offeredNodeActions(nodeRelation(ctx, null)).filter((a) => a === 'registerNode');
}
