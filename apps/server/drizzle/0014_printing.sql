CREATE TABLE "print_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "print_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"pool" text NOT NULL,
	"photo_ids" jsonb NOT NULL,
	"copies" integer NOT NULL,
	"state" text NOT NULL,
	"source" text NOT NULL,
	"request_key" text,
	"sheet_index" integer DEFAULT 0 NOT NULL,
	"print_request_id" integer,
	"printer" text,
	"output" text,
	"error" text,
	"reprint_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "print_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_print_request_id_print_requests_id_fk" FOREIGN KEY ("print_request_id") REFERENCES "public"."print_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_jobs_event_idx" ON "print_jobs" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "print_jobs_pool_state_idx" ON "print_jobs" USING btree ("pool","state");--> statement-breakpoint
CREATE UNIQUE INDEX "print_jobs_request_idx" ON "print_jobs" USING btree ("event_id","request_key","sheet_index");