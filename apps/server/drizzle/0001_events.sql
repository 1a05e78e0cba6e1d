CREATE TABLE "event_image_processes" (
	"event_id" integer NOT NULL,
	"image_process_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "event_image_processes_event_id_image_process_id_pk" PRIMARY KEY("event_id","image_process_id")
);
--> statement-breakpoint
CREATE TABLE "event_print_templates" (
	"event_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "event_print_templates_event_id_template_id_pk" PRIMARY KEY("event_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"organisation_id" integer NOT NULL,
	"owner_user_id" integer,
	"owner_key_hash" text NOT NULL,
	"owner_key_sealed" text NOT NULL,
	"private_key_hash" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"public_key_hash" text NOT NULL,
	"public_key_sealed" text NOT NULL,
	"secure_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"unlocked" smallint DEFAULT 0 NOT NULL,
	"full_name" text NOT NULL,
	"is_visible" smallint DEFAULT 1 NOT NULL,
	"empty_album_text" text NOT NULL,
	"logo_full_path" text,
	"logo_link" text NOT NULL,
	"email_for_reports" text NOT NULL,
	"hash_tag" text NOT NULL,
	"enable_facial_recognition" smallint NOT NULL,
	"date_utc_diff_hours" integer NOT NULL,
	"email_subject" text NOT NULL,
	"email_from_address" text NOT NULL,
	"email_from_address_verified" boolean DEFAULT false NOT NULL,
	"email_from_name" text NOT NULL,
	"email_body_template" text NOT NULL,
	"email_body_template_share" text NOT NULL,
	"receipt_email_body" text NOT NULL,
	"sharing_body_template" text NOT NULL,
	"sharing_video_body_template" text NOT NULL,
	"sharing_360_body_template" text NOT NULL,
	"sms_body_template" text NOT NULL,
	"is_sms_enabled" smallint NOT NULL,
	"photo_stream_available_minutes" integer,
	"photo_auto_delete_days" integer,
	"instant_archive_days" integer,
	"collect_leads" smallint NOT NULL,
	"is_photo_printer_active" smallint NOT NULL,
	"print_from_all_albums" smallint NOT NULL,
	"is_printer_pool_enabled" smallint NOT NULL,
	"is_print_every_photo" smallint NOT NULL,
	"printer_pool_name_list" text[],
	"max_print_copies_count" integer NOT NULL,
	"max_print_photos_count" integer NOT NULL,
	"place_holder_count" integer NOT NULL,
	"is_free" smallint NOT NULL,
	"protector_watermark" text,
	"secret_code_list" text NOT NULL,
	"live_view_watermark" text,
	"photo_watermark" text,
	"watermark_pt_id" integer,
	"stock_images_enable" smallint NOT NULL,
	"opts" jsonb NOT NULL,
	"notification_data" jsonb NOT NULL,
	"lead_params" jsonb NOT NULL,
	"shopify_shipping_address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "from_address_verifications" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "image_processes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "image_processes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"auto_print" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "index_ignore_faces" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "index_ignore_faces_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"full_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "print_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"organisation_id" integer,
	"is_watermark" boolean DEFAULT false NOT NULL,
	"placeholder_counts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "robots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"organisation_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"event_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_image_processes" ADD CONSTRAINT "event_image_processes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_image_processes" ADD CONSTRAINT "event_image_processes_image_process_id_image_processes_id_fk" FOREIGN KEY ("image_process_id") REFERENCES "public"."image_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_print_templates" ADD CONSTRAINT "event_print_templates_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_print_templates" ADD CONSTRAINT "event_print_templates_template_id_print_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."print_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_watermark_pt_id_print_templates_id_fk" FOREIGN KEY ("watermark_pt_id") REFERENCES "public"."print_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "from_address_verifications" ADD CONSTRAINT "from_address_verifications_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_processes" ADD CONSTRAINT "image_processes_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "index_ignore_faces" ADD CONSTRAINT "index_ignore_faces_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_templates" ADD CONSTRAINT "print_templates_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robots" ADD CONSTRAINT "robots_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robots" ADD CONSTRAINT "robots_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_name_idx" ON "events" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "events_owner_key_idx" ON "events" USING btree ("owner_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "events_private_key_idx" ON "events" USING btree ("private_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "events_public_key_idx" ON "events" USING btree ("public_key_hash");--> statement-breakpoint
CREATE INDEX "events_organisation_idx" ON "events" USING btree ("organisation_id");--> statement-breakpoint
CREATE INDEX "events_owner_user_idx" ON "events" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "from_address_verifications_event_idx" ON "from_address_verifications" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "image_processes_organisation_idx" ON "image_processes" USING btree ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "index_ignore_faces_event_path_idx" ON "index_ignore_faces" USING btree ("event_id","full_path");--> statement-breakpoint
CREATE INDEX "print_templates_organisation_idx" ON "print_templates" USING btree ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "robots_key_idx" ON "robots" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "robots_organisation_idx" ON "robots" USING btree ("organisation_id");--> statement-breakpoint
CREATE INDEX "robots_event_idx" ON "robots" USING btree ("event_id");