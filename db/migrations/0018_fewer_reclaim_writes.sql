ALTER TABLE "notifications" DROP CONSTRAINT "notifications_org_id_orgs_id_fk";
--> statement-breakpoint
DROP INDEX "unit_intervals_open_idx";--> statement-breakpoint
DROP INDEX "unit_intervals_reservation_idx";--> statement-breakpoint
CREATE INDEX "unit_intervals_reservation_idx" ON "unit_intervals" USING btree ("node_id","reservation_id","kind","unit_id","id");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express these). The verbs now find a reservation's open row of
-- a kind on a unit as that key's last row written (the highest id: writers on a node run one at a
-- time under its lock), whatever the clock said. Migration 0014's backfill inserted history in no
-- particular order, so an open row it wrote may sit below a closed one of its key: each such row
-- is written again, with a new id above every other.
WITH "stale" AS (
  DELETE FROM "unit_intervals" i
  WHERE i."open" AND i."kind" <> 'vm' AND EXISTS (
    SELECT 1 FROM "unit_intervals" j
    WHERE j."node_id" = i."node_id" AND j."reservation_id" = i."reservation_id" AND j."kind" = i."kind" AND j."unit_id" = i."unit_id" AND j."id" > i."id")
  RETURNING "node_id", "unit_id", "kind", "reservation_id", "vm_id", "starts_at", "ends_at", "open", "ended_by"
)
INSERT INTO "unit_intervals" ("node_id", "unit_id", "kind", "reservation_id", "vm_id", "starts_at", "ends_at", "open", "ended_by")
SELECT "node_id", "unit_id", "kind", "reservation_id", "vm_id", "starts_at", "ends_at", "open", "ended_by" FROM "stale";--> statement-breakpoint
-- Closing or moving an interval now changes no indexed column: room on each page for the new
-- version keeps it a HOT update (new pages only; pages written before keep their fill until
-- vacuum frees space on them).
ALTER TABLE "unit_intervals" SET (fillfactor = 80);--> statement-breakpoint
-- Release and reclaim flip `reservation_units.released`, and every change of a reservation moves
-- its `updated_at`: neither column is indexed, so each is a HOT update when its page has room —
-- without it the new version goes to another page and every index gains an entry (the units'
-- exclusion constraint searches its GiST index again; the reservation's GIN indexes grow).
ALTER TABLE "reservation_units" SET (fillfactor = 90);--> statement-breakpoint
ALTER TABLE "reservations" SET (fillfactor = 90);--> statement-breakpoint
-- A reclaim writes some fifteen event rows; each backend now takes 64 sequence values at a time
-- instead of locking the sequence per row. `seq` only orders the rows of one transaction (the
-- feed orders by xid, then seq), and one transaction's values come from one backend, in order.
ALTER SEQUENCE "events_seq_seq" CACHE 64;
