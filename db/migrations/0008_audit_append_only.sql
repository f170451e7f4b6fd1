-- Audit events are append-only (docs/product.md §7, §9.3): the application's own role
-- may insert them and nothing else. Row-level triggers refuse UPDATE and DELETE, a
-- statement-level one refuses TRUNCATE (which fires no row triggers). A database is reset by
-- recreating it (db/recreate.ts), never by emptying this table.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege', HINT = 'Audit events are never changed or removed; recreate the database to start over.';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
