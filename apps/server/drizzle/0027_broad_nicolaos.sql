ALTER TABLE "photos" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "is_360" smallint DEFAULT 0 NOT NULL;