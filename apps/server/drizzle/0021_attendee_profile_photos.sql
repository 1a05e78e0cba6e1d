CREATE TABLE "attendee_profile_photos" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attendee_profile_photos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"attendee_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendee_profile_photos" ADD CONSTRAINT "attendee_profile_photos_attendee_id_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendee_profile_photos_key_idx" ON "attendee_profile_photos" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "attendee_profile_photos_attendee_idx" ON "attendee_profile_photos" USING btree ("attendee_id","id");