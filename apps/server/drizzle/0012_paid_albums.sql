ALTER TABLE "photos" ADD COLUMN "tags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "print_requests" ADD COLUMN "client_request_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "print_requests_client_request_idx" ON "print_requests" USING btree ("event_id","client_request_id") WHERE "print_requests"."client_request_id" is not null;