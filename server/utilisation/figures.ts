import type { DbOrTx } from '@/db/client';
import { sql, type SQL } from 'drizzle-orm';
import { windowShape, type UtilisationWindow } from './windows';

/** What one bucket, or a whole window, adds up to (docs/product.md §5.8 Utilisation). GPU-hours are unit-hours. */
export type UtilisationFigures = {
  /** Unit-hours the reservations held their units (`reserved` intervals). */
  heldGpuHours: number;
  /** Held unit-hours with no VM of the reservation running on the unit (released or not). */
  idleGpuHours: number;
  /** Unit-hours on the spot market (`released` intervals). */
  releasedGpuHours: number;
  /** Released unit-hours with no spot VM on them: released, and nobody bought them. */
  idleReleasedGpuHours: number;
  /** Unit-hours spot VMs ran on the reservations' units while they held them. */
  spotGpuHours: number;
  /** Unit-hours the audience's own (reserved-tier) VMs ran on the reservations' units while they held them. */
  reservedTierGpuHours: number;
  /** VMs of the reservations that a reclaim ended (each VM once, whatever its units). */
  evictions: number;
};

/** One chart bucket `[from, to)`. */
export type UtilisationPoint = UtilisationFigures & { from: string; to: string };

/** A window's totals and its series. */
export type UtilisationSummary = { from: string; to: string; totals: UtilisationFigures; series: UtilisationPoint[] };

type Row = {
  from: string | null;
  to: string | null;
  total: number;
  held: number;
  idle: number;
  released: number;
  idle_released: number;
  spot: number;
  reserved_tier: number;
  evictions: number;
};

/** Times go to PostgreSQL as text: the driver binds no Date inside a raw template. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

const figuresOf = (r: Row): UtilisationFigures => ({
  heldGpuHours: Number(r.held),
  idleGpuHours: Number(r.idle),
  releasedGpuHours: Number(r.released),
  idleReleasedGpuHours: Number(r.idle_released),
  spotGpuHours: Number(r.spot),
  reservedTierGpuHours: Number(r.reserved_tier),
  evictions: Number(r.evictions),
});

const iso = (t: string | Date) => new Date(t).toISOString();

/**
 * The utilisation of the reservations `scope` selects, over the window ending `now`, in ONE
 * statement over `unit_intervals` (docs/product.md §5.8 Utilisation): the rows meeting the
 * window, clipped to it; VM rows intersected with the `reserved` row of the same unit and
 * reservation (a VM that outlives its holder's period — a cancel lets VMs run on — stops being
 * the reservation's use); then one sweep over the pieces' starts and ends and the buckets'
 * boundaries sums unit-seconds per bucket (one sort, not pieces × buckets: a roll-up of 40,000
 * reservations has ~10⁵ pieces); `grouping sets` give the series and the totals at once, so the
 * series always sums to the totals.
 * @param scope SQL over `unit_intervals` aliased `i` choosing the reservations' rows; it must
 *   name `i.node_id` and `i.reservation_id` so the index (node_id, reservation_id, kind) serves it.
 */
export async function readUtilisation(db: DbOrTx, scope: SQL, window: UtilisationWindow, now: Date): Promise<UtilisationSummary> {
  const start = new Date(now.getTime() - windowShape[window].lengthMs);
  const list = [...(await db.execute<Row>(utilisationStatement(scope, window, now)))];
  const totalRow = list.find((r) => Number(r.total) === 1);
  if (!totalRow) throw new Error('utilisation: the totals row is missing');
  return {
    from: start.toISOString(),
    to: now.toISOString(),
    totals: figuresOf(totalRow),
    series: list.filter((r) => Number(r.total) === 0).map((r) => ({ from: iso(r.from!), to: iso(r.to!), ...figuresOf(r) })),
  };
}

/** The one statement `readUtilisation` runs (exported for the plan checks: its test and the bench's EXPLAIN). */
export function utilisationStatement(scope: SQL, window: UtilisationWindow, now: Date): SQL {
  const { lengthMs, bucketMs } = windowShape[window];
  const start = new Date(now.getTime() - lengthMs);
  const ws = at(start);
  const we = at(now);
  const buckets = lengthMs / bucketMs;
  const step = bucketMs / 1000;
  // A time's bucket: buckets are counted from the window's start (the last one ends now).
  const bucketOf = (t: string) => sql.raw(`floor(extract(epoch from ${t} - `);
  const hours = (k: string) => sql.raw(`coalesce(sum(secs) filter (where k = '${k}'), 0) / 3600`);
  return sql`
    with iv as materialized (
      select i.kind, i.node_id, i.unit_id, i.reservation_id, i.vm_id, i.ended_by, i.ends_at as ended_at,
        greatest(i.starts_at, ${ws}) as s, least(coalesce(i.ends_at, ${we}), ${we}) as e
      from unit_intervals i
      where ${scope} and i.kind in ('reserved', 'released', 'vm') and i.starts_at < ${we} and (i.ends_at is null or i.ends_at >= ${ws})
    ),
    p as (
      select 'held' as k, s, e from iv where kind = 'reserved' and s < e
      union all select 'released', s, e from iv where kind = 'released' and s < e
      union all
        select case when v.tier = 'spot' then 'spot' else 'reserved-tier' end, greatest(x.s, h.s), least(x.e, h.e)
        from iv x
        -- The unit's reserved row, by the index (node_id, reservation_id, kind) per VM row: a join of
        -- the CTE with itself let the planner, misjudging its size, nest loops over both (minutes
        -- for an org managing 10,000 reservations).
        join lateral (
          select greatest(r.starts_at, ${ws}) as s, least(coalesce(r.ends_at, ${we}), ${we}) as e
          from unit_intervals r
          where r.node_id = x.node_id and r.reservation_id = x.reservation_id and r.kind = 'reserved' and r.unit_id = x.unit_id
        ) h on true
        join vms v on v.id = x.vm_id
        where x.kind = 'vm' and greatest(x.s, h.s) < least(x.e, h.e)
    ),
    -- A sweep instead of pieces × buckets: each piece starts (+1) and ends (−1) one unit of its
    -- kind; every bucket's start is an event too, so each step between events lies in one bucket,
    -- where the running count of units times the step's length is its unit-seconds. Ties at one
    -- instant give steps of length 0 but the last, which has the full count.
    ev as (
      select k, s as t, 1 as d from p
      union all select k, e, -1 from p
      union all select kk.k, ${ws} + g * ${step} * interval '1 second', 0
        from generate_series(0, ${buckets - 1}::int) g cross join (values ('held'), ('released'), ('spot'), ('reserved-tier')) kk(k)
    ),
    run as (
      select k, t, sum(d) over w as active, lead(t) over (partition by k order by t) as next_t
      from ev
      window w as (partition by k order by t rows unbounded preceding)
    ),
    seg as (
      select k, ${bucketOf('t')}${ws}) / ${step})::int as b, active * extract(epoch from next_t - t) as secs
      from run where next_t > t and active > 0
    ),
    -- An eviction is an instant: in the bucket holding it, the last one when it is now.
    evicted as (
      select least(${bucketOf('ended_at')}${ws}) / ${step})::int, ${buckets - 1}::int) as b, vm_id
      from iv x where kind = 'vm' and ended_by = 'reclaim' and ended_at <= ${we}
        -- This reservation's own reclaim: it cut its released row of the unit at that instant (not another holder's reclaim of a VM spanning both).
        and exists (select 1 from unit_intervals r where r.node_id = x.node_id and r.reservation_id = x.reservation_id and r.unit_id = x.unit_id
          and r.kind = 'released' and r.ended_by = 'reclaim' and r.ends_at = x.ended_at)
    ),
    f as (
      select g.b, grouping(g.b) as total,
        ${hours('held')} as held, ${hours('released')} as released, ${hours('spot')} as spot, ${hours('reserved-tier')} as reserved_tier
      from generate_series(0, ${buckets - 1}::int) g(b) left join seg using (b)
      group by grouping sets ((g.b), ())
    ),
    e as (
      select g.b, grouping(g.b) as total, count(distinct vm_id) as evictions
      from generate_series(0, ${buckets - 1}::int) g(b) left join evicted using (b)
      group by grouping sets ((g.b), ())
    )
    select ${ws} + f.b * ${step} * interval '1 second' as "from", ${ws} + (f.b + 1) * ${step} * interval '1 second' as "to", f.total,
      round(held::numeric, 3)::float8 as held,
      round(greatest(held - spot - reserved_tier, 0)::numeric, 3)::float8 as idle,
      round(released::numeric, 3)::float8 as released,
      round(greatest(released - spot, 0)::numeric, 3)::float8 as idle_released,
      round(spot::numeric, 3)::float8 as spot,
      round(reserved_tier::numeric, 3)::float8 as reserved_tier,
      e.evictions::int as evictions
    from f join e on e.total = f.total and e.b is not distinct from f.b
    order by f.total, f.b`;
}
