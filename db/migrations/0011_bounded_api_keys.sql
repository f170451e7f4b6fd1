-- Bounded API keys (docs/product.md §2, §5, §9.3): who created each key (at most one of a
-- user, a key of the same org, a system job; none for keys from before), an index for the cap
-- on active keys and one for the creation rate, both counted under the org's row lock; and an
-- index for the writers' purge of idempotency records older than 24 h.
-- Numbered 0011: 0010 is another branch's.
ALTER TABLE "api_keys" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_api_key_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_job" text;--> statement-breakpoint
CREATE INDEX "idempotency_records_created_idx" ON "idempotency_records" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_keys_active_org_idx" ON "api_keys" USING btree ("org_id") WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "api_keys_org_created_idx" ON "api_keys" USING btree ("org_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_one_creator" CHECK (num_nonnulls("api_keys"."created_by_user_id", "api_keys"."created_by_api_key_id", "api_keys"."created_by_job") <= 1);