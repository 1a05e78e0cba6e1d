CREATE TABLE "card_readers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_readers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"location_id" text NOT NULL,
	"location_name" text NOT NULL,
	"device_code_id" text NOT NULL,
	"device_id" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_connections" (
	"organisation_id" integer NOT NULL,
	"provider" text NOT NULL,
	"secrets" jsonb NOT NULL,
	"shop" text,
	"last_four" text NOT NULL,
	"tested_at" timestamp with time zone,
	"test_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_connections_organisation_id_provider_pk" PRIMARY KEY("organisation_id","provider")
);
--> statement-breakpoint
ALTER TABLE "card_readers" ADD CONSTRAINT "card_readers_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_connections" ADD CONSTRAINT "payment_connections_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_readers_code_idx" ON "card_readers" USING btree ("organisation_id","device_code_id");