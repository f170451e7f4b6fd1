-- Hand-written: drizzle-kit cannot express EXCLUDE constraints.
-- Non-cancelled reservations holding the same unit never overlap in time (SPEC §4).
-- Periods are half-open [starts_at, ends_at); a NULL ends_at is open-ended.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "reservation_units"
  ADD CONSTRAINT "reservation_units_no_overlap"
  EXCLUDE USING gist (
    "node_id" WITH =,
    "unit_id" WITH =,
    tstzrange("starts_at", "ends_at", '[)') WITH &&
  ) WHERE (NOT "cancelled");
--> statement-breakpoint
ALTER TABLE "reservation_units"
  ADD CONSTRAINT "reservation_units_period_valid" CHECK ("ends_at" IS NULL OR "ends_at" > "starts_at");
--> statement-breakpoint
-- A running VM row and its unit rows agree; terminated VMs carry when and why.
ALTER TABLE "vms"
  ADD CONSTRAINT "vms_termination_consistent" CHECK (
    ("status" = 'running' AND "terminated_at" IS NULL AND "termination_reason" IS NULL)
    OR ("status" = 'terminated' AND "terminated_at" IS NOT NULL AND "termination_reason" IS NOT NULL)
  );
--> statement-breakpoint
ALTER TABLE "vms"
  ADD CONSTRAINT "vms_reserved_tier_has_reservation" CHECK (("tier" = 'reserved') = ("reservation_id" IS NOT NULL));
--> statement-breakpoint
CREATE INDEX "reservations_allowed_org_ids_idx" ON "reservations" USING gin ("allowed_org_ids");
--> statement-breakpoint
CREATE INDEX "reservations_managing_org_ids_idx" ON "reservations" USING gin ("managing_org_ids");
