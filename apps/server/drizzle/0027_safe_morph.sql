ALTER TABLE "attendees" ADD COLUMN "custom_uid" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "attendees" SET "custom_uid" = 1, "private_id" = coalesce("private_id", upper(substr(md5(random()::text || "id"::text), 1, 8))) WHERE "batch_id" IS NULL AND "uid" !~ '^[2-9A-HJKMNP-Z]{16}$';
