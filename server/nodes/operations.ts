/** The node operations (docs/product.md §3, §5, §5.4): one declaration each (server/operation.ts). */
import type { ErrorCode } from '../errors';
import { Node, NodePage, NodeTimeline, UnitDetail } from '../openapi/schemas';
import { NoInput, operation, type OperationGroup } from '../operation';
import { withoutOrgNames } from '../orgs/internal';
import { listFleetActions, listNodeActions } from './actions';
import { getNode } from './get';
import { getUnit } from './get-unit';
import { listNodes, type NodeListPage } from './list';
import { registerNode } from './register';
import { listNodeOwners } from './owners';
import { ChangeTopologyInput, GetNodeInput, GetNodeTimelineInput, GetUnitInput, ListNodeOwnersInput, ListNodesInput, RegisterNodeInput } from './schemas';
import { changeTopology } from './topology';
import { getNodeTimeline } from './timeline';
import { listTopologyHistory } from './topology-history';

/** `GET /v1/nodes`'s answer: the Node objects, without the console's names and relations, and the counts. */
function nodePageForRest({ items, ...rest }: NodeListPage) {
  return { items: items.map(({ relations: _relations, ...n }) => withoutOrgNames(n)), ...rest };
}

const NOT_FOUND_AND_FORBIDDEN: ErrorCode[] = ['not_found', 'forbidden'];

export const nodeOperations = {
  list: operation({
    verb: listNodes,
    input: ListNodesInput,
    kind: 'query',
    scope: 'read',
    console: 'fleet.page',
    rest: {
      method: 'GET',
      path: '/v1/nodes',
      operationId: 'listNodes',
      tag: 'Nodes',
      summary: 'List nodes',
      description:
        'Nodes visible to the caller, with per-state unit counts: filtered (owner, search by id or name, relation to the acting org, released units, needs review), sorted by a stored column (default id), cursor-paginated, with how many match (`total`, counted up to 1000).',
      response: NodePage,
      responseDescription: 'A page of nodes.',
      errors: [],
      // The verb names each node's owner and the acting org's relations for the console (docs/product.md §9.1 q); REST answers Nodes.
      answer: nodePageForRest,
    },
  }),
  register: operation({
    verb: registerNode,
    input: RegisterNodeInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'fleet.register-node',
    rest: {
      method: 'POST',
      path: '/v1/nodes',
      operationId: 'registerNode',
      tag: 'Nodes',
      summary: 'Register a node',
      description: 'Platform operator only: registers a node with its unit list (1–64 units).',
      status: 201,
      response: Node,
      responseDescription: 'The registered node.',
      errors: ['forbidden', 'already_exists', 'unknown_org'],
    },
  }),
  get: operation({
    verb: getNode,
    input: GetNodeInput,
    kind: 'query',
    scope: 'read',
    console: 'node.page',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}',
      operationId: 'getNode',
      tag: 'Nodes',
      summary: 'Get a node',
      description: 'One node: its units with their state and its topologyGen.',
      response: Node,
      responseDescription: 'The node.',
      errors: ['not_found'],
      answer: withoutOrgNames,
    },
  }),
  unit: operation({
    verb: getUnit,
    input: GetUnitInput,
    kind: 'query',
    scope: 'read',
    console: 'node.unit-details',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}/units/{unitId}',
      operationId: 'getUnit',
      tag: 'Nodes',
      summary: 'Get one unit of a node',
      description:
        'The unit as the node answers it (its state and attributes), with its node id and the VM on it, as `GET /v1/vms/{id}` answers it, where the caller may see that VM.',
      response: UnitDetail,
      responseDescription: 'The unit.',
      errors: ['not_found'],
    },
  }),
  changeTopology: operation({
    verb: changeTopology,
    input: ChangeTopologyInput,
    kind: 'mutation',
    scope: 'reservations:write',
    console: 'node.change-topology',
    rest: {
      method: 'PUT',
      path: '/v1/nodes/{nodeId}/topology',
      operationId: 'changeTopology',
      tag: 'Nodes',
      summary: "Replace a node's unit list",
      description:
        'Platform operator only. When anything differs, topologyGen goes up by one and every pending or active reservation written against an older generation becomes needs-review. With `expectedTopologyGen`, only while the node is still at the generation the caller edited (else 409 topology_changed).',
      response: Node,
      responseDescription: 'The node after the change.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'topology_changed', 'unit_occupied'],
    },
  }),
  actions: operation({
    verb: listNodeActions,
    input: GetNodeInput,
    kind: 'query',
    scope: 'read',
    console: 'node.page',
    rest: { none: "which buttons the console shows on a node page; a program learns what it may do from each route's 403" },
  }),
  fleetActions: operation({
    verb: listFleetActions,
    input: NoInput,
    kind: 'query',
    scope: 'read',
    console: 'fleet.page',
    rest: { none: 'which buttons the console shows on the fleet page (Register node…)' },
  }),
  owners: operation({
    verb: listNodeOwners,
    input: ListNodeOwnersInput,
    kind: 'query',
    scope: 'read',
    console: 'fleet.page',
    rest: { none: "the fleet owner filter's offers; a program filters GET /v1/nodes by `owner` (an org id, or part of its name)" },
  }),
  topologyHistory: operation({
    verb: listTopologyHistory,
    input: GetNodeInput,
    kind: 'query',
    scope: 'read',
    console: 'node.topology-history',
    rest: { none: "the console's view of a node's topology generations, read from the audit trail that GET /v1/audit publishes" },
  }),
  timeline: operation({
    verb: getNodeTimeline,
    input: GetNodeTimelineInput,
    kind: 'query',
    scope: 'read',
    console: 'node.timeline',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}/timeline',
      operationId: 'getNodeTimeline',
      tag: 'Nodes',
      summary: "A node's capacity timeline",
      description:
        "The node's units (states now) and, over the window `[from, to)` (default: 7 days either side of now; at most 31 days), the intervals of the record that meet it — reservations' reserved (pending ones ahead too), released and needs-review rows where the caller may see the reservation, VMs' rows where it may see the VM — with reclaims, pending scheduled reclaims and topology changes.",
      response: NodeTimeline,
      responseDescription: 'The timeline.',
      errors: ['not_found'],
      answer: withoutOrgNames,
    },
  }),
} satisfies OperationGroup;
