CREATE INDEX "audit_actor_idx" ON "audit_events" USING btree ("actor_org_id","seq");--> statement-breakpoint
CREATE INDEX "reservations_managing_idx" ON "reservations" USING gin ("managing_org_ids");