CREATE TABLE "print_pool_pauses" (
	"event_id" integer NOT NULL,
	"pool" text NOT NULL,
	"paused_at" timestamp with time zone NOT NULL,
	CONSTRAINT "print_pool_pauses_event_id_pool_pk" PRIMARY KEY("event_id","pool")
);
--> statement-breakpoint
ALTER TABLE "print_pool_pauses" ADD CONSTRAINT "print_pool_pauses_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;