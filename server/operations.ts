/**
 * Every operation, by router (docs/architecture.md "Add an operation"): what the tRPC router
 * (server/trpc/root.ts) and the REST route table (server/rest/routes.ts) are built from, and what
 * the coverage tests (authorization matrix, hostile corpora, console actions) enumerate. An
 * operation's id is `<router>.<procedure>`, e.g. `reservations.reclaim`.
 */
import { apiKeyOperations } from './api-keys/operations';
import { auditOperations } from './audit/operations';
import { memberOperations } from './members/operations';
import { eventOperations } from './events/operations';
import { webhookOperations } from './webhooks/operations';
import { nodeOperations } from './nodes/operations';
import type { AnyOperation } from './operation';
import { orgOperations } from './orgs/operations';
import { reservationOperations } from './reservations/operations';
import { scheduledReclaimOperations } from './scheduled-reclaims/operations';
import { signInOperations } from './sign-ins/operations';
import { utilisationOperations } from './utilisation/operations';
import { vmOperations } from './vms/operations';

export const operationGroups = {
  nodes: nodeOperations,
  reservations: reservationOperations,
  scheduledReclaims: scheduledReclaimOperations,
  vms: vmOperations,
  audit: auditOperations,
  apiKeys: apiKeyOperations,
  orgs: orgOperations,
  signIns: signInOperations,
  utilisation: utilisationOperations,
  events: eventOperations,
  webhooks: webhookOperations,
  members: memberOperations,
};

type Groups = typeof operationGroups;

/** An operation's id: `<router>.<procedure>`. */
export type OperationId = { [G in keyof Groups]: `${G & string}.${keyof Groups[G] & string}` }[keyof Groups];

/** Every operation with its id, in declaration order (which the route table and the document keep). */
export const operations: readonly (AnyOperation & { id: OperationId })[] = Object.entries(operationGroups).flatMap(([group, ops]) =>
  Object.entries(ops).map(([name, op]) => ({ ...(op as AnyOperation), id: `${group}.${name}` as OperationId })),
);

/** The operation of an id. @throws Error for an id no declaration has. */
export function operationById(id: OperationId): AnyOperation & { id: OperationId } {
  const op = operations.find((o) => o.id === id);
  if (!op) throw new Error(`No operation ${id}`);
  return op;
}
