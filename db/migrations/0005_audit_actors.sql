ALTER TABLE "audit_events" ALTER COLUMN "node_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_job" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_one_actor" CHECK (num_nonnulls("audit_events"."actor_user_id", "audit_events"."actor_api_key_id", "audit_events"."actor_job") = 1);--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_reservation_on_node" CHECK ("audit_events"."reservation_id" is null or "audit_events"."node_id" is not null);