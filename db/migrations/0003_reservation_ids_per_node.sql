-- Reservation ids are unique per node (the key is (node_id, id)): an id taken on another
-- node no longer collides, so creating one can never reveal an invisible reservation.
ALTER TABLE "reservation_units" DROP CONSTRAINT "reservation_units_reservation_id_reservations_id_fk";
--> statement-breakpoint
ALTER TABLE "vms" DROP CONSTRAINT "vms_reservation_id_reservations_id_fk";
--> statement-breakpoint
DROP INDEX "reservations_node_idx";--> statement-breakpoint
ALTER TABLE "reservation_units" DROP CONSTRAINT "reservation_units_reservation_id_unit_id_pk";--> statement-breakpoint
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_pkey";--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_node_id_reservation_id_unit_id_pk" PRIMARY KEY("node_id","reservation_id","unit_id");--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_node_id_id_pk" PRIMARY KEY("node_id","id");--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_node_id_reservation_id_reservations_node_id_id_fk" FOREIGN KEY ("node_id","reservation_id") REFERENCES "public"."reservations"("node_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_node_id_reservation_id_reservations_node_id_id_fk" FOREIGN KEY ("node_id","reservation_id") REFERENCES "public"."reservations"("node_id","id") ON DELETE no action ON UPDATE no action;