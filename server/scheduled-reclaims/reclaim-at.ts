import { reclaimScheduleUnits, reclaimSchedules } from '@/db/schema';
import { sql, type SQL } from 'drizzle-orm';

/** A nullable timestamp as the driver returns it (a string, or a Date), as a Date or null. */
export const toDateOrNull = (v: string | Date | null): Date | null => (v == null ? null : new Date(v));

/**
 * A unit's earliest pending scheduled reclaim (docs/product.md §5.6) as one correlated
 * subquery, for the reads that show `reclaimAt` (unit states, VM views). Only pending
 * schedules keep unit rows, so no status test is needed.
 * @param nodeId, unitId the outer row's columns, written qualified: drizzle prints a one-table
 *   select's columns unqualified, which inside the subquery would name its own.
 */
export function unitReclaimAt(nodeId: SQL, unitId: SQL): SQL<Date | null> {
  return sql<Date | null>`(select min(rs.at) from ${reclaimScheduleUnits} rsu join ${reclaimSchedules} rs on rs.id = rsu.schedule_id where rsu.node_id = ${nodeId} and rsu.unit_id = ${unitId})`.mapWith(
    toDateOrNull,
  );
}
