CREATE TABLE "events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"type" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"node_id" text,
	"data" jsonb NOT NULL
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
CREATE INDEX "events_org_idx" ON "events" USING btree ("org_id","xid","seq");--> statement-breakpoint
CREATE INDEX "events_at_idx" ON "events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "reservation_milestones_due_idx" ON "reservation_milestones" USING btree ("due_at");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express triggers). One NOTIFY per statement that writes
-- events, naming the recipient orgs, so a long-polling feed (server/events/listen.ts) wakes only
-- for its own org. NOTIFY is delivered at commit, and not at all on rollback; identical payloads
-- of one transaction fold into one. Past the 8000-byte payload limit it says '*' (wake all).
CREATE FUNCTION "events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	orgs text;
BEGIN
	SELECT string_agg(DISTINCT org_id, ',') INTO orgs FROM new_rows;
	IF orgs IS NOT NULL THEN
		PERFORM pg_notify('events', CASE WHEN octet_length(orgs) > 7900 THEN '*' ELSE orgs END);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_notify" AFTER INSERT ON "events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_notify"();
--> statement-breakpoint
-- Hand-written backfill: the moments ahead of the reservations that exist now, so they are told
-- of like those created from here on. Moments already passed are not told of after the fact.
INSERT INTO "reservation_milestones" ("node_id", "reservation_id", "kind", "due_at")
SELECT r.node_id, r.id, 'started', r.starts_at FROM "reservations" r WHERE r.cancelled_at IS NULL AND r.starts_at > now()
UNION ALL
SELECT r.node_id, r.id, 'expired', r.ends_at FROM "reservations" r WHERE r.cancelled_at IS NULL AND r.ends_at IS NOT NULL AND r.ends_at > now();
