CREATE TABLE "events" (
	"seq" bigserial NOT NULL,
	"xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"type" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"node_id" text,
	"data" jsonb NOT NULL,
	CONSTRAINT "events_org_id_xid_seq_pk" PRIMARY KEY("org_id","xid","seq")
);
--> statement-breakpoint
CREATE TABLE "reservation_milestones" (
	"node_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "reservation_milestones_node_id_reservation_id_kind_pk" PRIMARY KEY("node_id","reservation_id","kind")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"manual" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"url" text NOT NULL,
	"types" text[] NOT NULL,
	"description" text,
	"enabled" boolean NOT NULL,
	"disabled_at" timestamp (3) with time zone,
	"disabled_reason" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"cursor_xid" bigint NOT NULL,
	"cursor_seq" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"failing_since" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone,
	"leased_by" text
);
--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_at_brin" ON "events" USING brin ("at");--> statement-breakpoint
CREATE INDEX "reservation_milestones_due_idx" ON "reservation_milestones" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("endpoint_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_org_idx" ON "webhook_endpoints" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_live_idx" ON "webhook_endpoints" USING btree ("org_id") WHERE "webhook_endpoints"."enabled";--> statement-breakpoint
CREATE INDEX "webhook_secrets_endpoint_idx" ON "webhook_secrets" USING btree ("endpoint_id");--> statement-breakpoint
-- Hand-written backfill: the moments ahead of the reservations that exist now, so they are told
-- of like those created from here on. Moments already passed are not told of after the fact.
INSERT INTO "reservation_milestones" ("node_id", "reservation_id", "kind", "due_at")
SELECT r.node_id, r.id, 'started', r.starts_at FROM "reservations" r WHERE r.cancelled_at IS NULL AND r.starts_at > now()
UNION ALL
SELECT r.node_id, r.id, 'expired', r.ends_at FROM "reservations" r WHERE r.cancelled_at IS NULL AND r.ends_at IS NOT NULL AND r.ends_at > now();
