-- Hand-written (drizzle-kit cannot express it): the trigram operator classes the fleet's search
-- indexes use (GIN on name and id: ILIKE '%q%' served by an index, docs/performance.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "nodes_owner_idx";--> statement-breakpoint
CREATE INDEX "nodes_name_idx" ON "nodes" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "nodes_created_at_idx" ON "nodes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "nodes_name_trgm_idx" ON "nodes" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_id_trgm_idx" ON "nodes" USING gin ("id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_topology_changed_idx" ON "nodes" USING btree ("id") WHERE "nodes"."topology_gen" > 1;--> statement-breakpoint
CREATE INDEX "nodes_owner_idx" ON "nodes" USING btree ("owner_org_id","id");