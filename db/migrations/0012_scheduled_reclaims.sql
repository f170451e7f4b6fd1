-- Scheduled reclaims (docs/product.md §5.6): the schedules, the units of pending ones (whose
-- primary key holds "a unit is in at most one pending schedule of its reservation"), and the
-- test clock's one offset (read only when TEST_CLOCK=1).
CREATE TABLE "reclaim_schedule_units" (
	"node_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	CONSTRAINT "reclaim_schedule_units_node_id_reservation_id_unit_id_pk" PRIMARY KEY("node_id","reservation_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "reclaim_schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"unit_ids" text[] NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"created_by_org_id" text NOT NULL,
	"created_by_user_id" text,
	"created_by_api_key_id" text,
	"created_by_job" text,
	"outcome" jsonb,
	"lapse_reason" text,
	CONSTRAINT "reclaim_schedules_one_creator" CHECK (num_nonnulls("reclaim_schedules"."created_by_user_id", "reclaim_schedules"."created_by_api_key_id", "reclaim_schedules"."created_by_job") = 1),
	CONSTRAINT "reclaim_schedules_outcome_when_done" CHECK (("reclaim_schedules"."status" = 'done') = ("reclaim_schedules"."outcome" is not null)),
	CONSTRAINT "reclaim_schedules_lapse_reason" CHECK (("reclaim_schedules"."status" = 'lapsed') = ("reclaim_schedules"."lapse_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "test_clock" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"offset_ms" bigint NOT NULL,
	CONSTRAINT "test_clock_one_row" CHECK ("test_clock"."one")
);
--> statement-breakpoint
ALTER TABLE "reclaim_schedule_units" ADD CONSTRAINT "reclaim_schedule_units_schedule_id_reclaim_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."reclaim_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reclaim_schedules" ADD CONSTRAINT "reclaim_schedules_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reclaim_schedules" ADD CONSTRAINT "reclaim_schedules_node_id_reservation_id_reservations_node_id_id_fk" FOREIGN KEY ("node_id","reservation_id") REFERENCES "public"."reservations"("node_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reclaim_schedule_units_schedule_idx" ON "reclaim_schedule_units" USING btree ("schedule_id");--> statement-breakpoint
CREATE INDEX "reclaim_schedules_pending_node_idx" ON "reclaim_schedules" USING btree ("node_id","at") WHERE "reclaim_schedules"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "reclaim_schedules_pending_at_idx" ON "reclaim_schedules" USING btree ("at") WHERE "reclaim_schedules"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "reclaim_schedules_reservation_idx" ON "reclaim_schedules" USING btree ("node_id","reservation_id","created_at","id");--> statement-breakpoint
ALTER TABLE "reclaim_schedules" ADD CONSTRAINT "reclaim_schedules_status" CHECK ("status" in ('pending', 'done', 'cancelled', 'lapsed'));
--> statement-breakpoint
-- Wakes the instances at a schedule's time through graphile-worker's queue, when its schema is
-- installed (the app installs it as it starts the runner; tests without a runner have none).
-- Dynamic SQL: a direct call would not even parse without the schema. One job per schedule
-- (job_key), moved on reschedule (replace). The job only wakes: the run is ours (§5.6).
CREATE FUNCTION "wake_reclaim_schedule"(p_node text, p_schedule text, p_run_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN
    RETURN;
  END IF;
  EXECUTE 'select graphile_worker.add_job($1, json_build_object(''nodeId'', $2::text, ''scheduleId'', $3::text), run_at => $4, job_key => $5, job_key_mode => ''replace'')'
    USING 'reclaim_wake', p_node, p_schedule, p_run_at, 'wake:' || p_schedule;
END
$$;
