ALTER TABLE "events" ADD COLUMN "time_zone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prints_used" integer DEFAULT 0 NOT NULL;