CREATE TABLE "outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"event_id" integer,
	"recipient" text NOT NULL,
	"sender" text,
	"content" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"provider" text,
	"provider_message_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"kind" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outbox_provider_message_idx" ON "outbox" USING btree ("provider","provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_idx" ON "webhook_events" USING btree ("provider","provider_event_id");
--> statement-breakpoint
-- One outbox for mail and SMS: move the rows of the two old tables. Mail keeps its ids (pending
-- mail.deliver jobs still name them); SMS ids follow after the highest mail id.
INSERT INTO "outbox" ("id", "channel", "kind", "event_id", "recipient", "sender", "content", "status", "attempts", "last_error", "sent_at", "created_at") OVERRIDING SYSTEM VALUE
SELECT "id", 'mail', "kind", NULL, "to_address", "from_address",
	jsonb_build_object('subject', "subject", 'text', "text_body", 'html', "html_body"),
	"status", "attempts", "last_error", "sent_at", "created_at"
FROM "mail_outbox";--> statement-breakpoint
INSERT INTO "outbox" ("id", "channel", "kind", "event_id", "recipient", "sender", "content", "status", "attempts", "last_error", "sent_at", "created_at") OVERRIDING SYSTEM VALUE
SELECT "id" + (SELECT coalesce(max("id"), 0) FROM "mail_outbox"), 'sms', "kind", "event_id", "to_number", "from_name",
	jsonb_build_object('body', "body"),
	"status", "attempts", "last_error", "sent_at", "created_at"
FROM "sms_outbox";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"outbox"', 'id'), coalesce((SELECT max("id") FROM "outbox"), 0) + 1, false);--> statement-breakpoint
DROP TABLE "mail_outbox" CASCADE;--> statement-breakpoint
DROP TABLE "sms_outbox" CASCADE;