CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	CONSTRAINT "memberships_user_id_org_id_pk" PRIMARY KEY("user_id","org_id")
);
--> statement-breakpoint
CREATE TABLE "orgs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "node_topologies" (
	"node_id" text NOT NULL,
	"gen" integer NOT NULL,
	"units" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "node_topologies_node_id_gen_pk" PRIMARY KEY("node_id","gen")
);
--> statement-breakpoint
CREATE TABLE "node_units" (
	"node_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"position" integer NOT NULL,
	"model" text,
	"memory_gib" integer,
	"nvlink_domain" text,
	CONSTRAINT "node_units_node_id_unit_id_pk" PRIMARY KEY("node_id","unit_id"),
	CONSTRAINT "node_units_position_uq" UNIQUE("node_id","position")
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_org_id" text NOT NULL,
	"topology_gen" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservation_units" (
	"reservation_id" text NOT NULL,
	"node_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"cancelled" boolean DEFAULT false NOT NULL,
	"released" boolean DEFAULT false NOT NULL,
	CONSTRAINT "reservation_units_reservation_id_unit_id_pk" PRIMARY KEY("reservation_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"allowed_org_ids" text[] NOT NULL,
	"managing_org_ids" text[] NOT NULL,
	"contract_ref" text,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"reason" text,
	"topology_gen" integer NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_units" (
	"vm_id" text NOT NULL,
	"node_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"running" boolean DEFAULT true NOT NULL,
	CONSTRAINT "vm_units_vm_id_unit_id_pk" PRIMARY KEY("vm_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "vms" (
	"id" text PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"org_id" text NOT NULL,
	"tier" text NOT NULL,
	"reservation_id" text,
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"terminated_at" timestamp (3) with time zone,
	"termination_reason" text
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"action" text NOT NULL,
	"actor_org_id" text NOT NULL,
	"actor_user_id" text,
	"actor_api_key_id" text,
	"via" text NOT NULL,
	"node_id" text NOT NULL,
	"reservation_id" text,
	"unit_ids" text[] NOT NULL,
	"reason" text,
	"details" jsonb NOT NULL,
	CONSTRAINT "audit_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb NOT NULL,
	"read_at" timestamp (3) with time zone,
	CONSTRAINT "notifications_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"org_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_records_org_id_method_path_key_pk" PRIMARY KEY("org_id","method","path","key")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_topologies" ADD CONSTRAINT "node_topologies_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_units" ADD CONSTRAINT "node_units_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_owner_org_id_orgs_id_fk" FOREIGN KEY ("owner_org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_units" ADD CONSTRAINT "vm_units_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_units" ADD CONSTRAINT "vm_units_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_org_idx" ON "api_keys" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "memberships_org_idx" ON "memberships" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "nodes_owner_idx" ON "nodes" USING btree ("owner_org_id");--> statement-breakpoint
CREATE INDEX "reservation_units_node_unit_idx" ON "reservation_units" USING btree ("node_id","unit_id");--> statement-breakpoint
CREATE INDEX "reservations_node_idx" ON "reservations" USING btree ("node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vm_units_one_running_vm_per_unit" ON "vm_units" USING btree ("node_id","unit_id") WHERE "vm_units"."running";--> statement-breakpoint
CREATE INDEX "vms_node_idx" ON "vms" USING btree ("node_id","status");--> statement-breakpoint
CREATE INDEX "vms_org_idx" ON "vms" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "audit_node_idx" ON "audit_events" USING btree ("node_id","seq");--> statement-breakpoint
CREATE INDEX "audit_reservation_idx" ON "audit_events" USING btree ("reservation_id","seq");--> statement-breakpoint
CREATE INDEX "notifications_org_idx" ON "notifications" USING btree ("org_id","seq");