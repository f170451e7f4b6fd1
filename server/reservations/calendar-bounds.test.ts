/**
 * The calendar bounds a page's cost by its nodes and, per node, its bars and each bar's released
 * spans (MAX_CALENDAR_BARS, MAX_CALENDAR_SPANS, with `truncated`; docs/product.md §5.8 "Fleet
 * calendar"): a node's month of short reservations, or one reservation's release/reclaim churn,
 * never comes back whole in one json_agg.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { listReservationCalendar, MAX_CALENDAR_BARS, MAX_CALENDAR_SPANS } from './calendar';

const scene = useFreshScene();
const db = () => scene().db;

describe('the calendar’s bars are bounded per page', () => {
  it('6,000 five-minute reservations on one node within the window: at most a bounded number of bars, or a truncated flag', async () => {
    const t0 = hours(30).toISOString();
    await db().execute(sql`insert into reservations (id, node_id, allowed_org_ids, managing_org_ids, starts_at, ends_at, topology_gen, created_at, updated_at)
      select 'rb-' || g, 'n1', array[${ORG.audience}]::text[], '{}'::text[], ${t0}::timestamptz + g * interval '5 minutes',
        ${t0}::timestamptz + (g + 1) * interval '5 minutes', 1, now(), now() from generate_series(1, 6000) g`);
    await db().execute(sql`insert into reservation_units (reservation_id, node_id, unit_id, starts_at, ends_at, cancelled, released)
      select r.id, r.node_id, 'gpu-6', r.starts_at, r.ends_at, false, false from reservations r where r.id like 'rb-%'`);
    const page = await listReservationCalendar({ ctx: ctxFor(db(), ORG.platform), input: { from: hours(0), to: hours(24 * 31), limit: 1 } });
    const [row] = page.items;
    // The earliest bars, and the row says there are more.
    expect(row!.reservations).toHaveLength(MAX_CALENDAR_BARS);
    expect(row!.truncated).toBe(true);
    expect(row!.reservations.map((r) => r.startsAt)).toEqual([...row!.reservations.map((r) => r.startsAt)].sort());
  });

  it('a reservation released and reclaimed 6,000 times in the window: its released spans are bounded', async () => {
    await db().execute(sql`insert into unit_intervals (node_id, unit_id, kind, reservation_id, starts_at, ends_at, open, ended_by)
      select 'n1', 'gpu-5', 'released', 'r1', ${hours(-23).toISOString()}::timestamptz + g * interval '10 seconds',
        ${hours(-23).toISOString()}::timestamptz + g * interval '10 seconds' + interval '5 seconds', false, 'reclaim' from generate_series(1, 6000) g`);
    const page = await listReservationCalendar({ ctx: ctxFor(db(), ORG.audience), input: { from: hours(-24), to: hours(24), limit: 1 } });
    const spans = page.items[0]!.reservations.find((r) => r.id === 'r1')!.released.length;
    expect(spans).toBe(MAX_CALENDAR_SPANS);
    expect(page.items[0]!.truncated).toBe(true);
  });
});
