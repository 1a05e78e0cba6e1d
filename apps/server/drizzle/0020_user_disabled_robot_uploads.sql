ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "photos_robot_created_idx" ON "photos" USING btree ("robot_id","created_at");