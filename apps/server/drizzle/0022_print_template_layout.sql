ALTER TABLE "print_jobs" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "print_templates" ADD COLUMN "layout" jsonb;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_template_id_print_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."print_templates"("id") ON DELETE set null ON UPDATE no action;