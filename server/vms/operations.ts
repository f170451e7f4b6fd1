/** The VM operations (docs/product.md §5, §5.3): one declaration each (server/operation.ts). REST's `{id}` fills `vmId`. */
import type { ErrorCode } from '../errors';
import { Vm, VmPage } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { pageWithoutOrgNames } from '../orgs/internal';
import { getVmDetail } from './detail';
import { getVm } from './get';
import { listNodeVms, listVms } from './list';
import { placeVm } from './place';
import { GetVmInput, ListNodeVmsInput, ListVmsInput, PlaceVmInput } from './schemas';
import { terminateVm } from './terminate';

const NOT_FOUND_AND_FORBIDDEN: ErrorCode[] = ['not_found', 'forbidden'];

export const vmOperations = {
  list: operation({
    verb: listVms,
    input: ListVmsInput,
    kind: 'query',
    scope: 'read',
    console: 'vms.page',
    rest: {
      method: 'GET',
      path: '/v1/vms',
      operationId: 'listVms',
      tag: 'VMs',
      summary: 'List VMs',
      description: 'VMs the caller may see, cursor-paginated.',
      response: VmPage,
      responseDescription: 'A page of VMs.',
      errors: [],
      // The verb names each VM's org where the caller sees it, for the console (docs/product.md §9.1 q); REST answers VMs.
      answer: pageWithoutOrgNames,
      export: {
        name: 'vms',
        window: 'VMs whose run [startedAt, terminatedAt) meets [since, until) (a running VM has not ended)',
        columns: [
          { name: 'id', value: (v) => v.id },
          { name: 'nodeId', value: (v) => v.nodeId },
          { name: 'unitIds', value: (v) => v.unitIds },
          { name: 'tier', value: (v) => v.tier },
          { name: 'status', value: (v) => v.status },
          { name: 'orgId', value: (v) => v.orgId },
          { name: 'reservationId', value: (v) => v.reservationId },
          { name: 'startedAt', value: (v) => v.startedAt },
          { name: 'terminatedAt', value: (v) => v.terminatedAt },
          { name: 'terminationReason', value: (v) => v.terminationReason },
          { name: 'reclaimAt', value: (v) => v.reclaimAt },
        ],
      },
    },
  }),
  place: operation({
    verb: placeVm,
    input: PlaceVmInput,
    kind: 'mutation',
    scope: 'vms:write',
    console: { apiOnly: 'schedulers place VMs, not people (docs/product.md §6)' },
    rest: {
      method: 'POST',
      path: '/v1/vms',
      operationId: 'placeVm',
      tag: 'VMs',
      summary: 'Place a VM',
      description:
        'Places a VM on 1–64 units of a node at a tier: `reserved` on the held, unreleased units of a reservation whose audience holds the acting org; `spot` on released or free units; `on-demand` on free units. A unit runs at most one VM.',
      status: 201,
      response: Vm,
      responseDescription: 'The running VM.',
      errors: [...NOT_FOUND_AND_FORBIDDEN, 'reservation_not_active', 'reservation_needs_review', 'unit_occupied', 'unit_unavailable', 'unknown_unit'],
    },
  }),
  get: operation({
    verb: getVm,
    input: GetVmInput,
    kind: 'query',
    scope: 'read',
    console: 'vm.page',
    rest: {
      method: 'GET',
      path: '/v1/vms/{id}',
      params: { id: 'vmId' },
      operationId: 'getVm',
      tag: 'VMs',
      summary: 'Get a VM',
      response: Vm,
      responseDescription: 'The VM.',
      errors: ['not_found'],
    },
  }),
  detail: operation({
    verb: getVmDetail,
    input: GetVmInput,
    kind: 'query',
    scope: 'read',
    console: 'vm.page',
    rest: { none: 'the VM page: the VM with the actions offered on it and the reason its reclaim gave; programs read GET /v1/vms/{id} and the audit trail' },
  }),
  listForNode: operation({
    verb: listNodeVms,
    input: ListNodeVmsInput,
    kind: 'query',
    scope: 'read',
    console: 'node.vm-table',
    rest: { none: "the node page's VM table, each VM with the console's actions; programs list a node's VMs with GET /v1/vms?nodeId=" },
  }),
  terminate: operation({
    verb: terminateVm,
    input: GetVmInput,
    kind: 'mutation',
    scope: 'vms:write',
    console: 'node.terminate-vm',
    rest: {
      method: 'POST',
      path: '/v1/vms/{id}/terminate',
      params: { id: 'vmId' },
      operationId: 'terminateVm',
      tag: 'VMs',
      summary: 'Terminate a VM',
      description: "The VM's own org or a platform operator. Terminating a VM that has ended changes nothing.",
      response: Vm,
      responseDescription: 'The terminated VM.',
      errors: NOT_FOUND_AND_FORBIDDEN,
    },
  }),
} satisfies OperationGroup;
