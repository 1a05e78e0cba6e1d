CREATE TABLE "attendee_favourites" (
	"attendee_id" integer NOT NULL,
	"photo_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendee_favourites_attendee_id_photo_id_pk" PRIMARY KEY("attendee_id","photo_id")
);
--> statement-breakpoint
ALTER TABLE "attendee_favourites" ADD CONSTRAINT "attendee_favourites_attendee_id_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_favourites" ADD CONSTRAINT "attendee_favourites_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendee_favourites_photo_idx" ON "attendee_favourites" USING btree ("photo_id");