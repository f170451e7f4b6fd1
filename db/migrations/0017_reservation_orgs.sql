CREATE TABLE "reservation_orgs" (
	"org_id" text NOT NULL,
	"role" text NOT NULL,
	"node_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	CONSTRAINT "reservation_orgs_org_id_role_node_id_reservation_id_pk" PRIMARY KEY("org_id","role","node_id","reservation_id"),
	CONSTRAINT "reservation_orgs_role" CHECK ("reservation_orgs"."role" in ('audience', 'managing'))
);
--> statement-breakpoint
ALTER TABLE "reservation_orgs" ADD CONSTRAINT "reservation_orgs_node_id_reservation_id_reservations_node_id_id_fk" FOREIGN KEY ("node_id","reservation_id") REFERENCES "public"."reservations"("node_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_orgs_reservation_idx" ON "reservation_orgs" USING btree ("node_id","reservation_id");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express triggers): reservation_orgs follows the arrays of
-- reservations in the same statement, so no writer can forget it. A new reservation's orgs by a
-- statement-level trigger (one INSERT … SELECT for however many rows: the fleet's bulk load
-- writes 400,000 reservations in one statement); a change of either array by a row-level one
-- that fires only when an array changes, so the writes of release and reclaim (which leave the
-- arrays alone) pay nothing. A deleted reservation's rows go by the foreign key's cascade.
CREATE FUNCTION "reservation_orgs_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "reservation_orgs" ("org_id", "role", "node_id", "reservation_id")
  SELECT DISTINCT o.org_id, o.role, n."node_id", n."id"
  FROM "added" n
  CROSS JOIN LATERAL (
    SELECT a, 'audience' FROM unnest(n."allowed_org_ids") a
    UNION ALL
    SELECT m, 'managing' FROM unnest(n."managing_org_ids") m
  ) AS o(org_id, role);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "reservation_orgs_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "reservation_orgs" WHERE "node_id" = OLD."node_id" AND "reservation_id" = OLD."id";
  INSERT INTO "reservation_orgs" ("org_id", "role", "node_id", "reservation_id")
  SELECT DISTINCT o.org_id, o.role, NEW."node_id", NEW."id"
  FROM (
    SELECT a, 'audience' FROM unnest(NEW."allowed_org_ids") a
    UNION ALL
    SELECT m, 'managing' FROM unnest(NEW."managing_org_ids") m
  ) AS o(org_id, role);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reservation_orgs_on_insert" AFTER INSERT ON "reservations" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "reservation_orgs_insert"();--> statement-breakpoint
CREATE TRIGGER "reservation_orgs_on_update" AFTER UPDATE OF "allowed_org_ids", "managing_org_ids" ON "reservations" FOR EACH ROW
  WHEN (OLD."allowed_org_ids" IS DISTINCT FROM NEW."allowed_org_ids" OR OLD."managing_org_ids" IS DISTINCT FROM NEW."managing_org_ids")
  EXECUTE FUNCTION "reservation_orgs_update"();--> statement-breakpoint
-- Backfill: the orgs of every reservation written before this migration.
INSERT INTO "reservation_orgs" ("org_id", "role", "node_id", "reservation_id")
SELECT DISTINCT o.org_id, o.role, r."node_id", r."id"
FROM "reservations" r
CROSS JOIN LATERAL (
  SELECT a, 'audience' FROM unnest(r."allowed_org_ids") a
  UNION ALL
  SELECT m, 'managing' FROM unnest(r."managing_org_ids") m
) AS o(org_id, role);
