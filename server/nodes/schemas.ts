import { z } from 'zod';
import { Id, freeText } from '../ids';
import { LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

/** One unit of a topology (docs/product.md §5 `units: [{ id, model?, memoryGiB?, nvlinkDomain? }]`). */
export const TopologyUnitInput = z
  .object({
    id: Id,
    model: freeText(100).optional(),
    memoryGiB: z.number().int().min(1).max(65_536).optional(),
    nvlinkDomain: Id.optional(),
  })
  .strict();

/** A node's unit list: 1–64 units with distinct ids (docs/product.md §5 Requests), in display order. */
export const TopologyUnits = z
  .array(TopologyUnitInput)
  .min(1, 'a node has at least one unit')
  .max(64, 'a node has at most 64 units')
  .superRefine((units, ctx) => {
    const seen = new Set<string>();
    for (const [i, u] of units.entries()) {
      if (seen.has(u.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate unit id "${u.id}"` });
      seen.add(u.id);
    }
  })
  // Distinct by `id`, which JSON Schema cannot say of an object's field (`uniqueItems` compares whole units): so in words.
  .meta({ uniqueItems: true, description: "The node's units in display order: 1–64, each unit's `id` distinct." });

export const RegisterNodeInput = z.object({ id: Id, name: freeText(200, { nonBlank: true }), ownerOrgId: Id, units: TopologyUnits }).strict();
export type RegisterNodeInput = z.infer<typeof RegisterNodeInput>;

/**
 * `expectedTopologyGen` of re-affirm and `PUT …/topology` (docs/product.md §5.4): the node's
 * generation the caller reviewed; another one is 409 `topology_changed` and nothing changes.
 */
export const ExpectedTopologyGen = z.int('must be an integer').min(1, 'must be at least 1').max(2_147_483_647, 'must be at most 2147483647').optional().meta({
  description:
    "The node's topologyGen the caller reviewed (e.g. the one its diff was computed against). If the node is at another generation, the request is refused with 409 topology_changed (carrying the current one in `topologyGen`) and nothing changes.",
});

/** `PUT /v1/nodes/{nodeId}/topology` (docs/product.md §5.4). */
export const ChangeTopologyInput = z.object({ nodeId: Id, units: TopologyUnits, expectedTopologyGen: ExpectedTopologyGen }).strict();
export type ChangeTopologyInput = z.infer<typeof ChangeTopologyInput>;

// Strict like every input: an unknown field is 400 on tRPC as on REST (docs/product.md §5 Requests).
export const GetNodeInput = z.object({ nodeId: Id }).strict();
export type GetNodeInput = z.infer<typeof GetNodeInput>;

/** `GET /v1/nodes/{nodeId}/units/{unitId}`: one unit of a node. */
export const GetUnitInput = z.object({ nodeId: Id, unitId: Id }).strict();
export type GetUnitInput = z.infer<typeof GetUnitInput>;

/** The stored columns the node list sorts by (docs/product.md §5 Lists); `owner` is the owner's org id. */
export const nodeSortKeys = ['id', 'name', 'owner', 'createdAt'] as const;
export type NodeSortKey = (typeof nodeSortKeys)[number];

/** How the acting org stands to a node (docs/product.md §5 Lists `relation`): owns it, manages or may use a reservation on it. */
export const nodeRelations = ['owns', 'manages', 'uses'] as const;
export type NodeRelation = (typeof nodeRelations)[number];

const Flag = (description: string) => z.enum(['true', 'false']).optional().meta({ description });

/** `GET /v1/nodes` and `nodes.list` (docs/product.md §5 Lists): one declaration, additive to the first (`limit`, `cursor`, `ownerOrgId`). */
export const ListNodesInput = z
  .object({
    limit: LimitNumber.optional(),
    cursor: z.string().optional(),
    ownerOrgId: Id.optional(),
    owner: freeText(100).optional().meta({ description: "The owner as a person types it: an org's id exactly, or part of its name (case-insensitive)." }),
    q: freeText(100).optional().meta({ description: "Part of the node's id or name, case-insensitive." }),
    sort: z
      .enum(nodeSortKeys)
      .optional()
      .meta({ description: 'The stored column to sort by (`owner`: the owner org id); default `id`. A cursor pages only the sort it came from.' }),
    order: z.enum(['asc', 'desc']).optional().meta({ description: 'Default `asc`.' }),
    relation: z.enum(nodeRelations).optional().meta({
      description:
        "Nodes the acting org owns, manages a reservation on (`managingOrgIds`), or may use (a reservation's audience), counting reservations not cancelled nor expired.",
    }),
    hasReleased: Flag('`true`: nodes with a unit in state released or spot-occupied now; `false`: the others.'),
    needsReview: Flag('`true`: nodes with a needs-review reservation the caller may see; `false`: the others.'),
  })
  .strict();
export type ListNodesInput = z.infer<typeof ListNodesInput>;

/** `nodes.owners` (console only): the fleet's owner filter's offers. */
export const ListNodeOwnersInput = z.object({ q: freeText(100).optional() }).strict();
export type ListNodeOwnersInput = z.infer<typeof ListNodeOwnersInput>;

/** The longest window one timeline read covers (docs/product.md §5.8 Node timeline): a month, so one read stays bound. */
export const MAX_TIMELINE_DAYS = 31;

/**
 * `GET /v1/nodes/{nodeId}/timeline` and `nodes.timeline` (docs/product.md §5.8 Node timeline):
 * the window `[from, to)`, both optional — absent, the last 7 days and the next 7 around now; one
 * alone, a 14-day window from (or to) it (the verb fills them in: it knows the clock). `from` before `to`, at most 31 days apart.
 */
export const GetNodeTimelineInput = z
  .object({
    nodeId: Id,
    from: Timestamp.optional().meta({
      description: 'Start of the window (inclusive), ISO 8601 UTC. Default: 14 days before `to` when only `to` is given, else 7 days before now.',
    }),
    to: Timestamp.optional().meta({
      description:
        'End of the window (exclusive), ISO 8601 UTC, after `from` and at most 31 days after it. Default: 14 days after `from` when only `from` is given, else 7 days after now.',
    }),
  })
  .strict();
export type GetNodeTimelineInput = z.infer<typeof GetNodeTimelineInput>;
