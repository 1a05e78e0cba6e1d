CREATE TABLE "attendee_events" (
	"attendee_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendee_events_attendee_id_event_id_pk" PRIMARY KEY("attendee_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "attendee_photos" (
	"attendee_id" integer NOT NULL,
	"photo_id" integer NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendee_photos_attendee_id_photo_id_pk" PRIMARY KEY("attendee_id","photo_id")
);
--> statement-breakpoint
CREATE TABLE "attendees" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attendees_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"private_id" text,
	"organisation_id" integer NOT NULL,
	"email" text,
	"is_prepaid" smallint DEFAULT 0 NOT NULL,
	"unlocked" smallint DEFAULT 0 NOT NULL,
	"partial_unlock_tag" text,
	"url_prefix" text,
	"locked_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendee_events" ADD CONSTRAINT "attendee_events_attendee_id_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_events" ADD CONSTRAINT "attendee_events_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_photos" ADD CONSTRAINT "attendee_photos_attendee_id_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_photos" ADD CONSTRAINT "attendee_photos_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendee_events_event_idx" ON "attendee_events" USING btree ("event_id","attendee_id");--> statement-breakpoint
CREATE INDEX "attendee_photos_photo_idx" ON "attendee_photos" USING btree ("photo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "attendees_uid_idx" ON "attendees" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "attendees_organisation_idx" ON "attendees" USING btree ("organisation_id","created_at");