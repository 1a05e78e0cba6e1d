CREATE TABLE "print_stations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "print_stations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"pool" text NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"printers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "sheet_key" text;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "lease_token" text;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "print_stations" ADD CONSTRAINT "print_stations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "print_stations_key_idx" ON "print_stations" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "print_stations_event_idx" ON "print_stations" USING btree ("event_id","pool");