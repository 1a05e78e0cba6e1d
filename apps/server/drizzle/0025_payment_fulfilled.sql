ALTER TABLE "payments" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
-- Payments confirmed before this column existed were handed over already.
UPDATE "payments" SET "fulfilled_at" = coalesce("paid_at", "updated_at") WHERE "status" IN ('paid', 'refunded');
