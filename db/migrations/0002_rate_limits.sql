CREATE TABLE "rate_limit_windows" (
	"key_id" text NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
