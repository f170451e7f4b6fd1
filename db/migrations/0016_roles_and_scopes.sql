-- Roles inside an org and scoped API keys (issue 28; docs/product.md §2): every existing membership
-- becomes `admin` and every existing key holds all four scopes (the columns' defaults), so nothing
-- changes for today's users and keys; invitations to join an org, kept hashed, single-use, 7 days.
CREATE TABLE "member_invites" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"role" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"accepted_at" timestamp (3) with time zone,
	"accepted_by_user_id" text,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "member_invites_secret_hash_unique" UNIQUE("secret_hash"),
	CONSTRAINT "member_invites_role" CHECK ("member_invites"."role" in ('admin', 'member', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT array['read', 'reservations:write', 'vms:write', 'keys:manage']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "role" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "member_invites" ADD CONSTRAINT "member_invites_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_invites_org_idx" ON "member_invites" USING btree ("org_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes" CHECK ("api_keys"."scopes" <@ array['read', 'reservations:write', 'vms:write', 'keys:manage']::text[]);--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role" CHECK ("memberships"."role" in ('admin', 'member', 'viewer'));