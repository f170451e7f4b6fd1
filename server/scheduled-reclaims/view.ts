import type { ReclaimScheduleLapse, ReclaimScheduleOutcome, ReclaimScheduleStatus, reclaimSchedules } from '@/db/schema';
import type { Principal } from '../context';
import { sortUnitIds } from '../ids';
import { maySeeScheduler } from '../policy';

export type ReclaimScheduleRow = typeof reclaimSchedules.$inferSelect;

/**
 * Who scheduled a reclaim (docs/product.md §5.6): its org to everyone who may read the schedule;
 * the user or API key only to the operator and that org.
 */
export type ReclaimScheduleCreator = { orgId: string; userId?: string; apiKeyId?: string; job?: string };

/** The ReclaimSchedule object (docs/product.md §5.6). */
export type ReclaimScheduleView = {
  id: string;
  nodeId: string;
  reservationId: string;
  unitIds: string[];
  at: string;
  reason?: string;
  status: ReclaimScheduleStatus;
  createdAt: string;
  updatedAt: string;
  createdBy: ReclaimScheduleCreator;
  outcome?: ReclaimScheduleOutcome;
  lapseReason?: ReclaimScheduleLapse;
};

export function toReclaimScheduleView(principal: Principal, row: ReclaimScheduleRow, positions: ReadonlyMap<string, number>): ReclaimScheduleView {
  const actorShown = maySeeScheduler(principal, row);
  return {
    id: row.id,
    nodeId: row.nodeId,
    reservationId: row.reservationId,
    unitIds: sortUnitIds(row.unitIds, positions),
    at: row.at.toISOString(),
    ...(row.reason ? { reason: row.reason } : {}),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: {
      orgId: row.createdByOrgId,
      ...(actorShown && row.createdByUserId ? { userId: row.createdByUserId } : {}),
      ...(actorShown && row.createdByApiKeyId ? { apiKeyId: row.createdByApiKeyId } : {}),
      ...(row.createdByJob ? { job: row.createdByJob } : {}),
    },
    ...(row.outcome ? { outcome: row.outcome } : {}),
    ...(row.lapseReason ? { lapseReason: row.lapseReason } : {}),
  };
}
