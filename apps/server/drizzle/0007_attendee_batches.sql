CREATE TABLE "attendee_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attendee_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organisation_id" integer NOT NULL,
	"requested_count" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendees" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "attendee_batches" ADD CONSTRAINT "attendee_batches_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendee_batches_status_idx" ON "attendee_batches" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_batch_id_attendee_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."attendee_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendees_batch_idx" ON "attendees" USING btree ("batch_id");