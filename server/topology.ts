import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { nodeTopologies, nodeUnits, nodes, vmUnits, type TopologyUnit } from '@/db/schema';
import { findNode, requireOperator, unknownOrgIds } from './access';
import { writeAuditEvent } from './audit';
import { atLockTime, inTransaction, type Ctx } from './context';
import { DomainError } from './errors';
import { Id, freeText, sortByCodePoint } from './ids';
import { toNodeViews, type NodeView } from './nodes';

/** One unit of a topology (SPEC §5 `units: [{ id, model?, memoryGiB?, nvlinkDomain? }]`). */
export const TopologyUnitInput = z
  .object({
    id: Id,
    model: freeText(100).optional(),
    memoryGiB: z.number().int().min(1).max(65_536).optional(),
    nvlinkDomain: Id.optional(),
  })
  .strict();

/** A node's unit list: 1–64 units with distinct ids (SPEC §5 Requests), in display order. */
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
  });

export const RegisterNodeInput = z.object({ id: Id, name: freeText(200).refine((s) => s.trim().length > 0, 'must not be empty'), ownerOrgId: Id, units: TopologyUnits }).strict();
export type RegisterNodeInput = z.infer<typeof RegisterNodeInput>;

export const ChangeTopologyBody = z.object({ units: TopologyUnits }).strict();
export const ChangeTopologyInput = ChangeTopologyBody.extend({ nodeId: Id });
export type ChangeTopologyInput = z.infer<typeof ChangeTopologyInput>;

function unitRows(nodeId: string, units: readonly TopologyUnit[]) {
  return units.map((u, position) => ({ nodeId, unitId: u.id, position, model: u.model ?? null, memoryGiB: u.memoryGiB ?? null, nvlinkDomain: u.nvlinkDomain ?? null }));
}

/** Drops absent optionals so the stored history compares and prints cleanly. */
function normalise(units: readonly TopologyUnit[]): TopologyUnit[] {
  return units.map((u) => ({ id: u.id, ...(u.model != null ? { model: u.model } : {}), ...(u.memoryGiB != null ? { memoryGiB: u.memoryGiB } : {}), ...(u.nvlinkDomain != null ? { nvlinkDomain: u.nvlinkDomain } : {}) }));
}

/**
 * Registers a node with its units at topologyGen 1 (SPEC §5 `POST /v1/nodes`).
 * @returns the Node object.
 * @throws DomainError forbidden (not an operator), unknown_org (ownerOrgId), already_exists (id taken).
 */
export async function registerNode({ ctx, input }: { ctx: Ctx; input: RegisterNodeInput }): Promise<NodeView> {
  requireOperator(ctx, 'register nodes');
  return inTransaction(ctx, async (tx) => {
    const unknown = await unknownOrgIds(tx, [input.ownerOrgId]);
    if (unknown.length) throw new DomainError('unknown_org', `No org "${input.ownerOrgId}" exists to own the node.`, { orgIds: unknown });
    const units = normalise(input.units);
    const inserted = await tx
      .insert(nodes)
      .values({ id: input.id, name: input.name.trim(), ownerOrgId: input.ownerOrgId, topologyGen: 1, createdAt: ctx.now, updatedAt: ctx.now })
      .onConflictDoNothing()
      .returning();
    const node = inserted[0];
    if (!node) throw new DomainError('already_exists', `A node "${input.id}" already exists; choose another id.`);
    await tx.insert(nodeUnits).values(unitRows(node.id, units));
    await tx.insert(nodeTopologies).values({ nodeId: node.id, gen: 1, units, createdAt: ctx.now });
    await writeAuditEvent(tx, ctx, { action: 'node.register', nodeId: node.id, unitIds: units.map((u) => u.id), details: { name: node.name, ownerOrgId: node.ownerOrgId, topologyGen: 1 } });
    const [view] = await toNodeViews({ ...ctx, db: tx }, [node]);
    return view!;
  });
}

/**
 * Replaces a node's unit list (SPEC §5.4). When anything differs (ids, order or attributes)
 * `topologyGen` goes up by one and the new list joins the node's history; every pending or
 * active reservation written against an older generation is then needs-review (derived, SPEC
 * §4). The same list again changes nothing and writes nothing.
 * @returns the Node object after the change.
 * @throws DomainError not_found, forbidden (not an operator), unit_occupied (a removed unit
 *   runs a VM; VMs on kept units keep running).
 */
export async function changeTopology({ ctx, input }: { ctx: Ctx; input: ChangeTopologyInput }): Promise<NodeView> {
  return inTransaction(ctx, async (tx) => {
    const node = await findNode(tx, input.nodeId, 'write');
    requireOperator(ctx, 'change a node’s topology');
    const lctx = atLockTime({ ...ctx, db: tx }, node.lockedAt);
    const current = await tx.select().from(nodeUnits).where(eq(nodeUnits.nodeId, node.id)).orderBy(nodeUnits.position);
    const before = normalise(current.map((u) => ({ id: u.unitId, model: u.model ?? undefined, memoryGiB: u.memoryGiB ?? undefined, nvlinkDomain: u.nvlinkDomain ?? undefined })));
    const after = normalise(input.units);
    if (JSON.stringify(before) === JSON.stringify(after)) {
      const [view] = await toNodeViews(lctx, [node]);
      return view!;
    }
    const kept = new Set(after.map((u) => u.id));
    const removed = before.filter((u) => !kept.has(u.id)).map((u) => u.id);
    if (removed.length) {
      const busy = await tx
        .select({ unitId: vmUnits.unitId, vmId: vmUnits.vmId })
        .from(vmUnits)
        .where(and(eq(vmUnits.nodeId, node.id), eq(vmUnits.running, true), inArray(vmUnits.unitId, removed)));
      if (busy.length) {
        const unitIds = removed.filter((u) => busy.some((b) => b.unitId === u));
        throw new DomainError('unit_occupied', `Units ${unitIds.join(', ')} run VMs; terminate them before removing the units.`, {
          unitIds,
          vmIds: sortByCodePoint(new Set(busy.map((b) => b.vmId))),
        });
      }
    }
    const gen = node.topologyGen + 1;
    await tx.delete(nodeUnits).where(eq(nodeUnits.nodeId, node.id));
    await tx.insert(nodeUnits).values(unitRows(node.id, after));
    await tx.insert(nodeTopologies).values({ nodeId: node.id, gen, units: after, createdAt: lctx.now });
    const [updated] = await tx.update(nodes).set({ topologyGen: gen, updatedAt: lctx.now }).where(eq(nodes.id, node.id)).returning();
    const had = new Set(before.map((u) => u.id));
    await writeAuditEvent(tx, lctx, {
      action: 'node.topology',
      nodeId: node.id,
      unitIds: after.map((u) => u.id),
      details: {
        fromGen: node.topologyGen,
        toGen: gen,
        added: after.filter((u) => !had.has(u.id)).map((u) => u.id),
        removed,
        changed: after.filter((u) => had.has(u.id) && JSON.stringify(u) !== JSON.stringify(before.find((b) => b.id === u.id))).map((u) => u.id),
      },
    });
    const [view] = await toNodeViews(lctx, [updated!]);
    return view!;
  });
}

/** Every generation's unit list of a node, oldest first (SPEC §5.4: the console shows what changed). */
export async function listTopologyHistory({ ctx, input }: { ctx: Ctx; input: { nodeId: string } }) {
  const node = await findNode(ctx.db, input.nodeId, 'none');
  const rows = await ctx.db.select().from(nodeTopologies).where(eq(nodeTopologies.nodeId, node.id)).orderBy(nodeTopologies.gen);
  return rows.map((r) => ({ gen: r.gen, units: r.units, createdAt: r.createdAt.toISOString() }));
}
