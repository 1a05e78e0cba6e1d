CREATE TABLE "face_data_deletions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "face_data_deletions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"reason" text NOT NULL,
	"faces" integer NOT NULL,
	"selfies" integer NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "face_selfies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "face_selfies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"key_type" text NOT NULL,
	"attendee_id" integer,
	"consent_version" text NOT NULL,
	"consented_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"associate_until" timestamp with time zone,
	"model" text,
	"descriptor" real[],
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "face_data_deletions" ADD CONSTRAINT "face_data_deletions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_selfies" ADD CONSTRAINT "face_selfies_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_selfies" ADD CONSTRAINT "face_selfies_attendee_id_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "face_data_deletions_event_idx" ON "face_data_deletions" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "face_selfies_key_idx" ON "face_selfies" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "face_selfies_event_idx" ON "face_selfies" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "face_selfies_expires_idx" ON "face_selfies" USING btree ("expires_at");