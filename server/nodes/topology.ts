import { nodeTopologies, nodeUnits, nodes, reservations, vmUnits } from '@/db/schema';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { openNeedsReview } from '../intervals/record';
import { inTransaction, type Ctx } from '../context';
import { DomainError } from '../errors';
import { sortByCodePoint } from '../ids';
import { notifyNeedsReview } from '../notifications/write';
import { assertNodeAction, nodeRelation } from '../policy';
import { dropScheduledUnits, lockNodeSettled } from '../scheduled-reclaims/settle';
import { assertExpectedTopologyGen, normalise, unitRows } from './internal';
import type { ChangeTopologyInput } from './schemas';
import { toNodeViews, type NodeView } from './view';
import { recipientsOf, writeEvents } from '../events/write';

/**
 * Replaces a node's unit list (docs/product.md §5.4). When anything differs (ids, order or attributes)
 * `topologyGen` goes up by one and the new list joins the node's history; every pending or
 * active reservation written against an older generation is then needs-review (derived, docs/product.md
 * §4), and the operator's bell gets one `reservation.needs_review` notification for each that
 * was current until now (one already needs-review is not told again). The same list again
 * changes nothing and writes nothing.
 * @param input.units the new unit list (1–64, distinct ids), in display order.
 * @param input.expectedTopologyGen the generation the operator edited: another is 409
 *   topology_changed, so that an edit of an older list never silently undoes a newer change.
 * @returns the Node object after the change.
 * @throws DomainError not_found, forbidden (not an operator), topology_changed (`topologyGen`:
 *   the node's current one), unit_occupied (a removed unit runs a VM; VMs on kept units keep
 *   running).
 */
export async function changeTopology({ ctx, input }: { ctx: Ctx; input: ChangeTopologyInput }): Promise<NodeView> {
  return inTransaction(ctx, async (tx) => {
    const { node, ctx: lctx } = await lockNodeSettled(tx, ctx, input.nodeId);
    assertNodeAction('changeTopology', nodeRelation(ctx, node));
    assertExpectedTopologyGen(node, input.expectedTopologyGen);
    const current = await tx.select().from(nodeUnits).where(eq(nodeUnits.nodeId, node.id)).orderBy(nodeUnits.position);
    const before = normalise(
      current.map((u) => ({ id: u.unitId, model: u.model ?? undefined, memoryGiB: u.memoryGiB ?? undefined, nvlinkDomain: u.nvlinkDomain ?? undefined })),
    );
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
        .where(and(eq(vmUnits.nodeId, node.id), sql`${vmUnits.running}`, inArray(vmUnits.unitId, removed)));
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
      to: recipientsOf(node),
      unitIds: after.map((u) => u.id),
      details: {
        fromGen: node.topologyGen,
        toGen: gen,
        added: after.filter((u) => !had.has(u.id)).map((u) => u.id),
        removed,
        changed: after.filter((u) => had.has(u.id) && JSON.stringify(u) !== JSON.stringify(before.find((b) => b.id === u.id))).map((u) => u.id),
      },
    });
    // Units gone from the node leave every pending scheduled reclaim (docs/product.md §5.6).
    await dropScheduledUnits(tx, { ctx: lctx, node }, removed);
    // Pending or active until now (not cancelled, not ended, at the node's old generation): needs-review from this commit on.
    const wereCurrent = await tx
      .select({ id: reservations.id, allowedOrgIds: reservations.allowedOrgIds, managingOrgIds: reservations.managingOrgIds })
      .from(reservations)
      .where(
        and(
          eq(reservations.nodeId, node.id),
          eq(reservations.topologyGen, node.topologyGen),
          isNull(reservations.cancelledAt),
          or(isNull(reservations.endsAt), gt(reservations.endsAt, lctx.now)),
        ),
      )
      .orderBy(sql`${reservations.id} collate "C"`);
    await openNeedsReview(
      tx,
      node.id,
      wereCurrent.map((r) => r.id),
      lctx.now,
    );
    await notifyNeedsReview(
      tx,
      lctx.now,
      wereCurrent.map((r) => ({ nodeId: node.id, reservationId: r.id, fromGen: node.topologyGen, topologyGen: gen })),
    );
    await writeEvents(
      tx,
      wereCurrent.map((r) => ({
        type: 'reservation.needs_review' as const,
        at: lctx.now,
        nodeId: node.id,
        data: { nodeId: node.id, reservationId: r.id, fromGen: node.topologyGen, topologyGen: gen },
        to: recipientsOf(node, r),
      })),
    );
    const [view] = await toNodeViews(lctx, [updated!]);
    return view!;
  });
}
