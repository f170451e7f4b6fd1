CREATE TABLE "unit_intervals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"kind" text NOT NULL,
	"reservation_id" text,
	"vm_id" text,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"open" boolean DEFAULT true NOT NULL,
	"ended_by" text,
	CONSTRAINT "unit_intervals_period" CHECK ("unit_intervals"."ends_at" is null or "unit_intervals"."ends_at" > "unit_intervals"."starts_at"),
	CONSTRAINT "unit_intervals_vm" CHECK (("unit_intervals"."kind" = 'vm') = ("unit_intervals"."vm_id" is not null)),
	CONSTRAINT "unit_intervals_reservation" CHECK ("unit_intervals"."kind" = 'vm' or "unit_intervals"."reservation_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "unit_intervals" ADD CONSTRAINT "unit_intervals_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unit_intervals_node_idx" ON "unit_intervals" USING btree ("node_id","starts_at");--> statement-breakpoint
CREATE INDEX "unit_intervals_reservation_idx" ON "unit_intervals" USING btree ("node_id","reservation_id","kind");--> statement-breakpoint
CREATE INDEX "unit_intervals_open_idx" ON "unit_intervals" USING btree ("node_id","reservation_id") WHERE "unit_intervals"."open";--> statement-breakpoint
CREATE INDEX "unit_intervals_vm_idx" ON "unit_intervals" USING btree ("vm_id") WHERE "unit_intervals"."vm_id" is not null;--> statement-breakpoint
ALTER TABLE "unit_intervals" ADD CONSTRAINT "unit_intervals_kind" CHECK ("kind" in ('reserved', 'released', 'vm', 'needs-review'));
--> statement-breakpoint
ALTER TABLE "unit_intervals" ADD CONSTRAINT "unit_intervals_ended_by" CHECK ("ended_by" in ('cancel', 'shrink', 'reclaim', 'terminate', 'reaffirm'));
--> statement-breakpoint
-- Backfill (hand-written): what the rows and the audit trail can tell of the time before the
-- verbs recorded intervals (docs/product.md §5.8). Reserved: each reservation's units over its
-- period, cut at its cancel, plus the units a shrink removed (the create event names them, the
-- update event says when they left). Released: from each release event to the next reclaim
-- naming the unit, shrink or cancel, or open while the unit is released now (a unit released
-- with no event — data written below the verbs — from the reservation's start). VMs: their rows
-- tell it all. Needs-review: from the topology change that made it so to its re-affirm, or open.
WITH r AS (
	SELECT r.node_id, r.id, r.starts_at, r.ends_at, r.cancelled_at,
		CASE WHEN r.cancelled_at IS NOT NULL AND (r.ends_at IS NULL OR r.cancelled_at < r.ends_at) THEN r.cancelled_at ELSE r.ends_at END AS cut_at
	FROM "reservations" r
), shrunk AS (
	SELECT DISTINCT ON (e.node_id, e.reservation_id, u.unit_id) e.node_id, e.reservation_id, u.unit_id, e.at
	FROM "audit_events" e CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(e.details->'removedUnitIds', '[]'::jsonb)) AS u(unit_id)
	WHERE e.action = 'reservation.update'
	ORDER BY e.node_id, e.reservation_id, u.unit_id, e.at
), units AS (
	SELECT ru.node_id, ru.reservation_id, ru.unit_id, NULL::timestamptz AS removed_at FROM "reservation_units" ru
	UNION
	SELECT s.node_id, s.reservation_id, s.unit_id, s.at FROM shrunk s
	WHERE NOT EXISTS (SELECT 1 FROM "reservation_units" ru WHERE ru.node_id = s.node_id AND ru.reservation_id = s.reservation_id AND ru.unit_id = s.unit_id)
)
INSERT INTO "unit_intervals" ("node_id", "unit_id", "kind", "reservation_id", "starts_at", "ends_at", "open", "ended_by")
SELECT u.node_id, u.unit_id, 'reserved', u.reservation_id, r.starts_at, x.ends_at, x.open, x.ended_by
FROM units u JOIN r ON r.node_id = u.node_id AND r.id = u.reservation_id
CROSS JOIN LATERAL (SELECT
	CASE WHEN u.removed_at IS NOT NULL AND (r.cut_at IS NULL OR u.removed_at < r.cut_at) THEN u.removed_at ELSE r.cut_at END AS ends_at,
	u.removed_at IS NULL AND r.cancelled_at IS NULL AS open,
	CASE WHEN u.removed_at IS NOT NULL AND (r.cut_at IS NULL OR u.removed_at < r.cut_at) THEN 'shrink'
		WHEN r.cancelled_at IS NOT NULL AND r.cut_at = r.cancelled_at THEN 'cancel' END AS ended_by) x
WHERE x.ends_at IS NULL OR x.ends_at > r.starts_at;
--> statement-breakpoint
WITH opened AS (
	SELECT e.node_id, e.reservation_id, u.unit_id, e.at, e.seq
	FROM "audit_events" e CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(e.details->'released', '[]'::jsonb)) AS u(unit_id)
	WHERE e.action = 'reservation.release'
), closing AS (
	SELECT e.node_id, e.reservation_id, u.unit_id, e.at, e.seq, CASE e.action WHEN 'reservation.reclaim' THEN 'reclaim' ELSE 'cancel' END AS ended_by
	FROM "audit_events" e CROSS JOIN LATERAL unnest(e.unit_ids) AS u(unit_id)
	WHERE e.action IN ('reservation.reclaim', 'reservation.cancel')
	UNION ALL
	SELECT e.node_id, e.reservation_id, u.unit_id, e.at, e.seq, 'shrink'
	FROM "audit_events" e CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(e.details->'removedUnitIds', '[]'::jsonb)) AS u(unit_id)
	WHERE e.action = 'reservation.update'
), spans AS (
	SELECT o.node_id, o.reservation_id, o.unit_id, o.at AS starts_at, c.at AS closed_at, c.ended_by
	FROM opened o LEFT JOIN LATERAL (
		SELECT c.at, c.ended_by FROM closing c
		WHERE c.node_id = o.node_id AND c.reservation_id = o.reservation_id AND c.unit_id = o.unit_id AND (c.at, c.seq) > (o.at, o.seq)
		ORDER BY c.at, c.seq LIMIT 1
	) c ON true
	UNION ALL
	SELECT ru.node_id, ru.reservation_id, ru.unit_id, r.starts_at, NULL, NULL
	FROM "reservation_units" ru JOIN "reservations" r ON r.node_id = ru.node_id AND r.id = ru.reservation_id
	WHERE ru.released AND NOT EXISTS (SELECT 1 FROM opened o WHERE o.node_id = ru.node_id AND o.reservation_id = ru.reservation_id AND o.unit_id = ru.unit_id)
)
INSERT INTO "unit_intervals" ("node_id", "unit_id", "kind", "reservation_id", "starts_at", "ends_at", "open", "ended_by")
SELECT s.node_id, s.unit_id, 'released', s.reservation_id, s.starts_at,
	CASE WHEN s.closed_at IS NOT NULL AND (r.ends_at IS NULL OR s.closed_at < r.ends_at) THEN s.closed_at ELSE r.ends_at END,
	s.closed_at IS NULL,
	CASE WHEN s.closed_at IS NOT NULL AND (r.ends_at IS NULL OR s.closed_at < r.ends_at) THEN s.ended_by END
FROM spans s JOIN "reservations" r ON r.node_id = s.node_id AND r.id = s.reservation_id
WHERE (r.ends_at IS NULL OR s.starts_at < r.ends_at) AND (s.closed_at IS NULL OR s.closed_at > s.starts_at);
--> statement-breakpoint
INSERT INTO "unit_intervals" ("node_id", "unit_id", "kind", "reservation_id", "vm_id", "starts_at", "ends_at", "open", "ended_by")
SELECT v.node_id, vu.unit_id, 'vm', h.reservation_id, v.id, v.started_at, v.terminated_at, v.status = 'running',
	CASE v.termination_reason WHEN 'reclaimed' THEN 'reclaim' WHEN 'terminated' THEN 'terminate' END
FROM "vms" v JOIN "vm_units" vu ON vu.vm_id = v.id
LEFT JOIN LATERAL (
	SELECT ru.reservation_id FROM "reservation_units" ru JOIN "reservations" r ON r.node_id = ru.node_id AND r.id = ru.reservation_id
	WHERE ru.node_id = v.node_id AND ru.unit_id = vu.unit_id AND r.starts_at <= v.started_at AND (r.ends_at IS NULL OR r.ends_at > v.started_at)
		AND (r.cancelled_at IS NULL OR r.cancelled_at > v.started_at)
	ORDER BY r.starts_at DESC LIMIT 1
) h ON true
WHERE v.terminated_at IS NULL OR v.terminated_at > v.started_at;
--> statement-breakpoint
WITH windows AS (
	SELECT e.node_id, e.reservation_id, (e.details->>'fromGen')::int AS from_gen, e.at AS closed_at
	FROM "audit_events" e WHERE e.action = 'reservation.reaffirm' AND e.details ? 'fromGen'
	UNION ALL
	SELECT r.node_id, r.id, r.topology_gen, NULL
	FROM "reservations" r JOIN "nodes" n ON n.id = r.node_id
	WHERE r.topology_gen < n.topology_gen AND r.cancelled_at IS NULL
)
INSERT INTO "unit_intervals" ("node_id", "unit_id", "kind", "reservation_id", "starts_at", "ends_at", "open", "ended_by")
SELECT w.node_id, ru.unit_id, 'needs-review', w.reservation_id, t.created_at,
	CASE WHEN w.closed_at IS NOT NULL AND (r.ends_at IS NULL OR w.closed_at < r.ends_at) THEN w.closed_at ELSE r.ends_at END,
	w.closed_at IS NULL,
	CASE WHEN w.closed_at IS NOT NULL AND (r.ends_at IS NULL OR w.closed_at < r.ends_at) THEN 'reaffirm' END
FROM windows w
JOIN "reservations" r ON r.node_id = w.node_id AND r.id = w.reservation_id
JOIN "node_topologies" t ON t.node_id = w.node_id AND t.gen = w.from_gen + 1
JOIN "reservation_units" ru ON ru.node_id = w.node_id AND ru.reservation_id = w.reservation_id
WHERE (r.ends_at IS NULL OR t.created_at < r.ends_at) AND (w.closed_at IS NULL OR w.closed_at > t.created_at);
