-- Custom migration (issue 18): the photo list's order with the columns its usual filters read, so
-- skipping rows for a page by number is an index-only scan (photo.repository.ts `list`).
-- drizzle's index builder has no INCLUDE, so this index is not declared in schema.ts.
CREATE INDEX IF NOT EXISTS "photos_event_order_idx" ON "photos" USING btree ("event_id", "created_at" DESC, "id" DESC) INCLUDE ("available_at", "status", "is_visible");
