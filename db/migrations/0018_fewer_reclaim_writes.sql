ALTER TABLE "notifications" DROP CONSTRAINT "notifications_org_id_orgs_id_fk";
--> statement-breakpoint
DROP INDEX "unit_intervals_open_idx";--> statement-breakpoint
DROP INDEX "unit_intervals_reservation_idx";--> statement-breakpoint
CREATE INDEX "unit_intervals_reservation_idx" ON "unit_intervals" USING btree ("node_id","reservation_id","kind","unit_id","starts_at");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express these). Closing or moving an interval now changes no
-- indexed column: room on each page for the new version keeps it a HOT update (new pages only;
-- pages written before keep their fill until vacuum frees space on them).
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
