CREATE TABLE "photo_face_scans" (
	"photo_id" integer PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"model" text NOT NULL,
	"min_score" real NOT NULL,
	"face_count" integer NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photo_faces" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "photo_faces_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"photo_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"box_x" real NOT NULL,
	"box_y" real NOT NULL,
	"box_width" real NOT NULL,
	"box_height" real NOT NULL,
	"width_px" integer NOT NULL,
	"height_px" integer NOT NULL,
	"score" real NOT NULL,
	"model" text NOT NULL,
	"descriptor" real[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "index_ignore_faces" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "index_ignore_faces" ADD COLUMN "descriptor" real[];--> statement-breakpoint
ALTER TABLE "photo_face_scans" ADD CONSTRAINT "photo_face_scans_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_face_scans" ADD CONSTRAINT "photo_face_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_faces" ADD CONSTRAINT "photo_faces_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_faces" ADD CONSTRAINT "photo_faces_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photo_face_scans_event_idx" ON "photo_face_scans" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "photo_faces_event_idx" ON "photo_faces" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "photo_faces_photo_idx" ON "photo_faces" USING btree ("photo_id");