CREATE TABLE "activities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"robot_id" integer NOT NULL,
	"photo_id" integer,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photo_audit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "photo_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"photo_id" integer NOT NULL,
	"photo_uid" text NOT NULL,
	"file_name" text NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "photos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"event_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"media_type" text NOT NULL,
	"width" integer,
	"height" integer,
	"size_bytes" bigint NOT NULL,
	"robot_id" integer,
	"attendee_uid" text,
	"category" text,
	"is_visible" smallint DEFAULT 1 NOT NULL,
	"is_original" smallint DEFAULT 1 NOT NULL,
	"is_curatable" smallint DEFAULT 1 NOT NULL,
	"is_curated" smallint DEFAULT 0 NOT NULL,
	"is_kiosk" smallint DEFAULT 0 NOT NULL,
	"printable" smallint DEFAULT 1 NOT NULL,
	"printed" smallint DEFAULT 0 NOT NULL,
	"print_requested" smallint DEFAULT 0 NOT NULL,
	"image_process_id" integer,
	"original_photo_id" integer,
	"status" text NOT NULL,
	"derivatives" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failure_reason" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"available_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_event_idx" ON "activities" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "photo_audit_event_idx" ON "photo_audit" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "photos_uid_idx" ON "photos" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "photos_event_sha_idx" ON "photos" USING btree ("event_id","sha256");--> statement-breakpoint
CREATE INDEX "photos_event_created_idx" ON "photos" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "photos_event_available_idx" ON "photos" USING btree ("event_id","available_at");--> statement-breakpoint
CREATE INDEX "photos_event_attendee_idx" ON "photos" USING btree ("event_id","attendee_uid");